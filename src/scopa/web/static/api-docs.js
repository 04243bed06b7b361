// Starts Swagger UI on /api/docs (a file, not an inline script: the CSP allows only 'self').
/* global SwaggerUIBundle */
window.addEventListener("DOMContentLoaded", () => {
  const root = document.getElementById("swagger-ui");
  if (!root) return;
  SwaggerUIBundle({
    url: root.dataset.url,
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    validatorUrl: null, // no badge from validator.swagger.io: nothing leaves this server
  });
});
