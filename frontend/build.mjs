// The site's one script: src/main.js and the modules it imports, bundled by esbuild into a classic script (an IIFE,
// no `type="module"`: a page opened from disk through file:// runs it) at bertviz_lite/export/assets/site.js, which
// export/writing.py copies into every exported site. The bundle is committed, so that the Python package needs no
// node; tests/test_frontend.py holds it equal to what this script builds from src/.
//
//   node build.mjs           write the bundle
//   node build.mjs --check   build in memory; exit 1, naming the stale file, if the committed bundle differs
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const OUT = join(here, "..", "bertviz_lite", "export", "assets", "site.js");
const BANNER = [
  "// GENERATED FILE: do not edit by hand. Built from frontend/src (entry src/main.js) by `npm run build` in frontend/",
  "// (esbuild, see frontend/build.mjs); edit the modules there and build again. tests/test_frontend.py checks that",
  "// this file is what the modules build to.",
].join("\n");

/** The bundle's bytes, built in memory (the same bytes for the same sources: no timestamps, no absolute paths). */
async function bundle() {
  const result = await esbuild.build({
    entryPoints: [join(here, "src", "main.js")],
    bundle: true,
    format: "iife",
    target: "es2020",
    minify: false,
    charset: "utf8",
    legalComments: "inline",
    banner: { js: BANNER },
    absWorkingDir: here,
    write: false,
    outfile: OUT,
    logLevel: "warning",
  });
  return result.outputFiles[0].contents;
}

const built = await bundle();
const name = relative(join(here, ".."), OUT);
if (process.argv.includes("--check")) {
  const committed = await readFile(OUT).catch(() => null);
  if (committed === null || Buffer.compare(Buffer.from(built), committed) !== 0) {
    console.error(`${name} is stale: it is not what frontend/src builds to. Run \`npm run build\` in frontend/ ` +
                  "and commit the result.");
    process.exit(1);
  }
  console.log(`${name} is current.`);
} else {
  await writeFile(OUT, built);
  console.log(`wrote ${name} (${built.length} bytes)`);
}
