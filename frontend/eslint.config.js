// ESLint's flat config: the recommended rules over the site's modules (browser globals, and the globals the bundle
// reads beside it) and over the build script, the tests and the drivers of other browsers (node's globals); an
// unused variable is an error.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/"] },
  js.configs.recommended,
  {
    rules: { "no-unused-vars": "error" },
  },
  {
    files: ["src/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser, Plotly: "readonly" },  // plotly.min.js, loaded before the bundle
    },
  },
  {
    files: ["build.mjs", "eslint.config.js", "test/**/*.js", "drive/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
