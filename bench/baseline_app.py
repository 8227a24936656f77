"""The ceiling the API is measured against: a plain Flask JSON endpoint,
served by gunicorn with the same settings, in the same run."""
from flask import Flask, jsonify

app = Flask(__name__)


@app.get("/plain")
def plain():
    return jsonify({"status": "ok", "version": 12, "seat": 0})
