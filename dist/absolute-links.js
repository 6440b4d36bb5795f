#!/usr/bin/env node
// Rewrites the relative links of a Markdown file into links to the repository at a revision:
//
//   node dist/absolute-links.js FILE REPOSITORY_URL REVISION
//
// README.md links to `rules/<id>.md`, `action.yml` and the like, which work on the repository's
// own page but not where the README is shown on its own: PyPI, npm and crates.io. The release
// workflow runs this on its checkout before it builds the packages, so their pages link to the
// files of the released tag. Links in code (fenced blocks, `inline code`), anchors (`#...`) and
// links with a scheme (`https:`, `mailto:`) are left as they are.
"use strict";

const fs = require("fs");

const [file, repository, revision] = process.argv.slice(2);
if (!file || !repository || !revision) {
  process.stderr.write("usage: node dist/absolute-links.js FILE REPOSITORY_URL REVISION\n");
  process.exit(2);
}
const base = `${repository.replace(/\/+$/, "")}/blob/${revision}/`;

function absolute(target) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#") || target.startsWith("/")) {
    return target;
  }
  return base + target.replace(/^\.\//, "");
}

// Outside code spans: `[text](target)` and `[text](target "title")`.
function rewriteLine(line) {
  return line
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2 === 1 ? part : part.replace(/\]\(([^)\s]+)((?:\s+"[^"]*")?)\)/g, (_, t, title) => `](${absolute(t)}${title})`),
    )
    .join("");
}

let fence = null;
const out = fs
  .readFileSync(file, "utf8")
  .split("\n")
  .map((line) => {
    const marker = line.match(/^\s*(`{3,}|~{3,})/);
    if (marker) {
      if (fence === null) fence = marker[1][0];
      else if (marker[1][0] === fence) fence = null;
      return line;
    }
    return fence === null ? rewriteLine(line) : line;
  })
  .join("\n");
fs.writeFileSync(file, out);
