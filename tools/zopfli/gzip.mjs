// gzip.mjs IN OUT writes IN gzipped by zopfli (npm's @gfx/zopfli), which
// deflates some 5 % smaller than Go's best level; build.sh uses it for the
// page's wasm when it is installed. One iteration: more take minutes for
// a few KB.
import { gzip } from '@gfx/zopfli';
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: node tools/zopfli/gzip.mjs IN OUT');
  process.exit(2);
}
gzip(readFileSync(input), { numiterations: 1 }, (err, out) => {
  if (err) {
    console.error('zopfli:', err);
    process.exit(1);
  }
  writeFileSync(output, out);
});
