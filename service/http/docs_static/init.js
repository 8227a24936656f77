// The API reference: Swagger UI (from the flask-swagger-ui package, served
// by this server) reading this server's own openapi.yaml.
window.ui = SwaggerUIBundle({
  url: "/openapi.yaml",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: "StandaloneLayout",
  validatorUrl: null, // never asks another host to validate the spec
  tryItOutEnabled: false,
});
