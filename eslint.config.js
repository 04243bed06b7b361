// ESLint (flat config) for the page scripts in src/scopa/web/static/ and their node tests:
// `make lint` runs it. The vendored files (static/vendor/, made by `make setup`) are not ours.
import js from "@eslint/js";
import globals from "globals";

const STATIC = "src/scopa/web/static";

export default [
  { ignores: [`${STATIC}/vendor/**`, "node_modules/**", ".venv/**", "build/**", "test-artifacts/**"] },
  js.configs.recommended,
  {
    rules: {
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      "no-implicit-globals": "error",
      "no-shadow-restricted-names": "error",
      "prefer-const": "off",
    },
  },
  {
    // The pages' modules.
    files: [`${STATIC}/**/*.js`],
    ignores: [`${STATIC}/sw.js`, `${STATIC}/scorer.js`],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // The Pyodide worker: a module worker.
    files: [`${STATIC}/scorer.js`],
    languageOptions: { sourceType: "module", globals: { ...globals.worker } },
  },
  {
    // The service worker: a classic script (module service workers are too new for phones).
    files: [`${STATIC}/sw.js`],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
    rules: { "no-implicit-globals": "off" }, // its global scope is its own
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
