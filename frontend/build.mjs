// The front end's bundles, built by esbuild from src/ and committed, so that the Python package needs no node;
// tests/test_frontend.py holds each equal to what this script builds.
// - The site's one script: src/main.js and the modules it imports, as a classic script (an IIFE, no
//   `type="module"`: a page opened from disk through file:// runs it) at bertviz_lite/export/assets/site.js, which
//   export/writing.py copies into every exported site.
// - The app's components (Streamlit's st.components.v2 runs a module's default export), at app_pages/shell/js/:
//   src/app_keys.js, every heatmap walked by keys (with the site's cell_keys.js); src/app_taps.js, a clickable
//   chart's listener; src/app_into_view.js, what a reader's action made brought into view and said. Read by
//   app_pages/shell/cell_keys.py, taps.py and into_view.py.
//
//   node build.mjs           write the bundles
//   node build.mjs --check   build in memory; exit 1, naming each stale file, if a committed bundle differs
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const BUNDLES = [
  { entry: "main.js", out: join(root, "bertviz_lite", "export", "assets", "site.js"), format: "iife" },
  { entry: "app_keys.js", out: join(root, "app_pages", "shell", "js", "app_keys.js"), format: "esm" },
  { entry: "app_taps.js", out: join(root, "app_pages", "shell", "js", "app_taps.js"), format: "esm" },
  { entry: "app_into_view.js", out: join(root, "app_pages", "shell", "js", "app_into_view.js"), format: "esm" },
];

/**
 * A bundle's bytes, built in memory (the same bytes for the same sources: no timestamps, no absolute paths).
 * @param {{ entry: string, out: string, format: "iife" | "esm" }} bundle
 */
async function built({ entry, out, format }) {
  const banner = [
    `// GENERATED FILE: do not edit by hand. Built from frontend/src (entry src/${entry}) by \`npm run build\` in`,
    "// frontend/ (esbuild, see frontend/build.mjs); edit the modules there and build again. tests/test_frontend.py",
    "// checks that this file is what the modules build to.",
  ].join("\n");
  const result = await esbuild.build({
    entryPoints: [join(here, "src", entry)],
    bundle: true,
    format,
    target: "es2020",
    minify: false,
    charset: "utf8",
    legalComments: "inline",
    banner: { js: banner },
    absWorkingDir: here,
    write: false,
    outfile: out,
    logLevel: "warning",
  });
  return result.outputFiles[0].contents;
}

const checking = process.argv.includes("--check");
let stale = false;
for (const bundle of BUNDLES) {
  const bytes = await built(bundle);
  const name = relative(root, bundle.out);
  if (checking) {
    const committed = await readFile(bundle.out).catch(() => null);
    if (committed === null || Buffer.compare(Buffer.from(bytes), committed) !== 0) {
      console.error(`${name} is stale: it is not what frontend/src builds to. Run \`npm run build\` in frontend/ ` +
                    "and commit the result.");
      stale = true;
    } else console.log(`${name} is current.`);
  } else {
    await writeFile(bundle.out, bytes);
    console.log(`wrote ${name} (${bytes.length} bytes)`);
  }
}
if (stale) process.exit(1);
