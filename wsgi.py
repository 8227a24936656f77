"""The WSGI entry point gunicorn serves: ``gunicorn wsgi:app``."""
from service.http.app import create_app

app = create_app()
