// Starts Swagger UI on /docs; its settings come from the container's data attributes, so the
// page needs no inline script (its Content-Security-Policy allows scripts from 'self' only).
const container = document.getElementById("swagger-ui-container");
const config = JSON.parse(container.dataset.config || "{}");
window.ui = window.SwaggerUIBundle({
  url: container.dataset.specUrl,
  dom_id: "#swagger-ui-container",
  presets: [window.SwaggerUIBundle.presets.apis, window.SwaggerUIStandalonePreset],
  layout: "BaseLayout",
  ...config,
});
