#!/usr/bin/env node
// Rewrites the relative links of a Markdown file into links to the repository at a revision:
//
//   node dist/absolute-links.js FILE REPOSITORY_URL REVISION
//
// README.md links to `rules/<id>.md`, `action.yml` and the like, which work on the repository's
// own page but not where the README is shown on its own: PyPI, npm and crates.io. The release
// workflow runs this on its checkout before it builds the packages, so their pages link to the
// files of the released tag (images to their bytes, folders to their listing). Links in code
// (fenced blocks, `inline code`), anchors (`#...`) and links with a scheme (`https:`,
// `mailto:`) are left as they are; so are indented code blocks' lines, which a line alone
// cannot tell from a list item's text (README.md has none).
"use strict";

const fs = require("fs");

const [file, repository, revision] = process.argv.slice(2);
if (!file || !repository || !revision) {
  process.stderr.write("usage: node dist/absolute-links.js FILE REPOSITORY_URL REVISION\n");
  process.exit(2);
}
const root = `${repository.replace(/\/+$/, "")}/`;

// A file is shown at `blob/`, a folder at `tree/`, an image's bytes at `raw/`.
function absolute(target, image) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#") || target.startsWith("//")) {
    return target;
  }
  // `/x.md` is the repository's root on GitHub, as `x.md` is from the README at the root.
  const path = target.replace(/^\/+/, "").replace(/^(\.\/)+/, "");
  const kind = image ? "raw" : path.split("#")[0].endsWith("/") ? "tree" : "blob";
  return `${root}${kind}/${revision}/${path}`;
}

// Outside code spans: `[text](target)`, `![alt](target)`, with `<target>` and a title in
// "", '' or () after it.
const TARGET = String.raw`\((\s*)(<[^>\n]*>|[^)\s<>]+)((?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*)\)`;
const IMAGE = new RegExp(String.raw`(!\[[^\]\n]*\])` + TARGET, "g");
const LINK = new RegExp(String.raw`(\])` + TARGET, "g");
// A reference definition: `[label]: target "title"`.
// Not a footnote (`[^1]: text`) nor a GitHub alert.
const DEFINITION = /^(\s{0,3}\[(?![\^!])[^\]]+\]:\s*)(<[^>\n]*>|\S+)(.*)$/;

function rewriteTarget(target, image) {
  if (target.startsWith("<")) return `<${absolute(target.slice(1, -1), image)}>`;
  return absolute(target, image);
}

function rewriteLine(line) {
  const definition = line.match(DEFINITION);
  if (definition) return definition[1] + rewriteTarget(definition[2], false) + definition[3];
  return line
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(IMAGE, (_, head, space, target, title) =>
              `${head}(${space}${rewriteTarget(target, true)}${title})`,
            )
            // Images are absolute by now, and absolute targets are kept.
            .replace(LINK, (_, head, space, target, title) =>
              `${head}(${space}${rewriteTarget(target, false)}${title})`,
            ),
    )
    .join("");
}

// Fenced code (CommonMark): a line of three or more backticks or tildes, at any indentation so
// that fences in list items count, opens a block; only a line of the same character, at least
// as long and with nothing after it, closes it.
let fence = null;

function mapLine(line) {
  const marker = line.match(/^\s*(`{3,}|~{3,})(.*)$/);
  if (fence === null) {
    if (marker && !(marker[1][0] === "`" && marker[2].includes("`"))) {
      fence = marker[1];
      return line;
    }
    return rewriteLine(line);
  }
  if (
    marker &&
    marker[1][0] === fence[0] &&
    marker[1].length >= fence.length &&
    marker[2].trim() === ""
  ) {
    fence = null;
  }
  return line;
}

const out = fs
  .readFileSync(file, "utf8")
  .split("\n")
  .map((full) => {
    // A CRLF file: match without the CR, which `.` and `$` would trip on, and keep it.
    const cr = full.endsWith("\r") ? "\r" : "";
    return mapLine(cr ? full.slice(0, -1) : full) + cr;
  })
  .join("\n");
fs.writeFileSync(file, out);
