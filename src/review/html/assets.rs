//! What the page carries inline: its stylesheet, its script and its icons. Nothing is fetched:
//! the page is one file a CI job can attach, readable offline and in print.

/// The stylesheet. Widths: the operations table is `table-layout: fixed` and every cell wraps
/// anywhere, so a 4 MB spec's longest path still fits a 1,280 px window; print is landscape,
/// with the filters left out and the table's heads repeated on every page.
pub const STYLE: &str = r#"
:root{--risk:#b42318;--risk-bg:#fff4f3;--risk-soft:#fee4e2;--gap:#a15c07;--gap-bg:#fffaeb;--gap-soft:#fef0c7;--good:#067647;--good-bg:#f3fcf6;--good-soft:#dcfae6;--na:#667085;--na-bg:#fafbfc;--na-soft:#eaecf0;--line:#e4e7ec;--ink:#1d2939;--muted:#5d6b82;--hh:3.25rem}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans","Liberation Sans",sans-serif;color:var(--ink);background:#f4f6f9}
code{font:.9em/1.3 ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",monospace;background:#eef1f5;border-radius:3px;padding:0 .2em;overflow-wrap:anywhere}
a{color:#175cd3}
h1,h2,h3{line-height:1.25}
.sprite{position:absolute;width:0;height:0;overflow:hidden}
header.top{position:sticky;top:0;z-index:5;background:#fff;border-bottom:1px solid var(--line);box-shadow:0 1px 3px rgba(16,24,40,.06);padding:.55rem 1.5rem;display:flex;flex-wrap:wrap;gap:.45rem 1.5rem;align-items:center}
header.top h1{font-size:1.05rem;margin:0;flex:1 1 18rem;min-width:0;overflow-wrap:anywhere}
header.top h1 span{font-weight:400;color:var(--muted)}
form.filters{display:flex;flex-wrap:wrap;gap:.4rem .9rem;align-items:center;font-size:.88em;min-width:0}
form.filters fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.3rem;align-items:center}
form.filters legend{float:left;margin-right:.3rem;color:var(--muted)}
form.filters label.chip{position:relative;cursor:pointer;border-radius:999px;user-select:none}
form.filters label.chip input{position:absolute;opacity:0;pointer-events:none}
form.filters label.chip input:not(:checked)+.v{background:#fff;color:#98a2b3;box-shadow:inset 0 0 0 1px #d0d5dd}
form.filters label.chip input:focus-visible+.v{outline:2px solid #175cd3;outline-offset:1px}
form.filters select,form.filters input[type=search]{font:inherit;padding:.15rem .3rem;border:1px solid #d0d5dd;border-radius:4px;background:#fff;max-width:14rem}
form.filters button{font:inherit;border:1px solid #d0d5dd;border-radius:999px;background:#eff4ff;padding:.05rem .6rem;cursor:pointer}
form.filters output{color:var(--muted);white-space:nowrap}
nav.docs{padding:.5rem 1.5rem 0;font-size:.9em}
nav.docs a{margin-right:1.2rem;overflow-wrap:anywhere}
nav.docs a span{color:var(--muted);font-size:.9em}
main{padding:0 1.5rem 3rem;max-width:110rem;margin:0 auto}
p.legend{margin:.8rem 0 0;color:var(--muted);font-size:.88em;display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;align-items:center}
section.doc,section.not-reviewed{background:#fff;border:1px solid var(--line);border-radius:8px;margin:1rem 0 1.5rem;padding:1.1rem 1.3rem 1.3rem;min-width:0}
section.doc>h2,section.not-reviewed>h2{margin:0;font-size:1.4rem;overflow-wrap:anywhere}
section.doc h3{font-size:1.05rem;margin:1.5rem 0 .5rem}
section.doc h3 .count{color:var(--muted);font-weight:400}
p.file{margin:.2rem 0 1rem;color:var(--muted);overflow-wrap:anywhere}
.overview{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,3fr);gap:1rem 2rem;align-items:start}
@media (max-width:62rem){.overview{grid-template-columns:minmax(0,1fr)}}
dl.facts{margin:0;display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.35rem .9rem}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
dl.facts .big{font-size:1.2em;font-weight:650}
p.tally{display:flex;flex-wrap:wrap;gap:.4rem;margin:.2rem 0 1rem}
p.tally span{border-radius:999px;padding:.1rem .65rem;background:var(--na-soft)}
p.tally .regressions{background:var(--risk-soft);color:var(--risk);font-weight:600}
p.tally .improvements{background:var(--good-soft);color:var(--good)}
figure.chart{margin:0;min-width:0}
figure.chart figcaption{font-size:.85em;color:var(--muted);margin-bottom:.3rem}
.bars{display:grid;grid-template-columns:minmax(0,13rem) minmax(0,1fr) minmax(0,11rem);gap:.2rem .7rem;align-items:center;font-size:.88em}
.bars .q{overflow-wrap:anywhere}
.bars .when{font-size:.8em;color:var(--muted);text-align:right}
.bar{display:flex;height:.95rem;border-radius:3px;overflow:hidden;background:var(--na-soft);min-width:0}
.bar.before{height:.55rem;opacity:.55}
.seg{min-width:3px;height:100%}
.seg.live{cursor:pointer}
.seg.live:hover{filter:brightness(.85)}
.seg.risk{background:#d92d20}.seg.gap{background:#f79009}.seg.good{background:#17b26a}.seg.na{background:#d0d5dd}
.counts{display:flex;flex-wrap:wrap;gap:0 .5rem;font-variant-numeric:tabular-nums;color:var(--muted)}
.counts b{font-weight:600}
.counts .risk{color:var(--risk)}.counts .gap{color:var(--gap)}.counts .good{color:var(--good)}
table{width:100%;border-collapse:collapse;table-layout:fixed}
th,td{text-align:left;vertical-align:top;padding:.45rem .55rem;border-bottom:1px solid var(--line);overflow-wrap:anywhere}
thead th{font-size:.82em;color:var(--muted);font-weight:600;background:#fff;border-bottom:2px solid var(--line)}
table.ops thead th{position:sticky;top:var(--hh);z-index:1}
table.ops col.op{width:23%}
table.gaps{table-layout:auto}table.gaps col.rule{width:16rem}table.gaps col.sev{width:6.5rem}table.gaps col.n{width:5.5rem}
tr.operation>th{font-weight:400;border-left:4px solid var(--na-soft)}
tr.operation.w-risk>th{border-left-color:#d92d20}tr.operation.w-gap>th{border-left-color:#f79009}tr.operation.w-good>th{border-left-color:#17b26a}
.op-name{display:block;margin-bottom:.2rem}
.op-name code{background:none;padding:0;font-weight:600}
.op-meta{display:block;font-size:.8em;color:var(--muted)}
.m{display:inline-block;font:700 .72em/1.5 ui-monospace,Menlo,Consolas,"DejaVu Sans Mono",monospace;color:#fff;background:#475467;border-radius:3px;padding:0 .35em;margin-right:.35em;vertical-align:.1em}
.m.get{background:#1570ef}.m.post{background:#088752}.m.put{background:#c4550a}.m.patch{background:#6941c6}.m.delete{background:#c01048}
.tag{display:inline-block;background:#f2f4f7;border-radius:3px;padding:0 .3em;margin:.1rem .25rem 0 0}
.flag{display:inline-block;font-size:.75em;font-weight:600;border-radius:3px;padding:0 .4em;margin-left:.3em;background:var(--na-soft);color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
.flag.regression{background:var(--risk-soft);color:var(--risk)}.flag.improvement{background:var(--good-soft);color:var(--good)}
td.a.risk{background:var(--risk-bg)}td.a.gap{background:var(--gap-bg)}td.a.good{background:var(--good-bg)}td.a.na{background:var(--na-bg);color:var(--muted)}
td.a.same{opacity:.5}
td.a p{margin:0 0 .2rem}
td.a p .v{margin-right:.15em}
.v{display:inline-flex;align-items:center;gap:.28em;font-size:.72em;font-weight:700;text-transform:uppercase;letter-spacing:.04em;padding:.08em .5em .08em .3em;border-radius:999px;white-space:nowrap;line-height:1.4}
.v svg{width:1.15em;height:1.15em;flex:none}
.v.risk{color:var(--risk);background:var(--risk-soft)}.v.gap{color:var(--gap);background:var(--gap-soft)}.v.good{color:var(--good);background:var(--good-soft)}.v.na{color:var(--na);background:var(--na-soft)}
.at{font-size:.8em;color:var(--muted);display:inline-block;max-width:100%}
a.at{color:#175cd3}
.was{border-bottom:1px dashed #d0d5dd;padding-bottom:.3rem;margin-bottom:.3rem;color:var(--muted)}
.when-label{font-size:.7em;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin-right:.3em}
tr.notes td{background:#fcfcfd;padding:.35rem .55rem .5rem 1.6rem;border-left:4px solid var(--line)}
tr.notes ul{margin:0;padding:0;list-style:none}
tr.notes li{margin:.15rem 0}
.sev{display:inline-block;font-size:.72em;font-weight:700;text-transform:uppercase;letter-spacing:.04em;border-radius:3px;padding:0 .4em;margin-right:.35em}
.sev.error{background:var(--risk-soft);color:var(--risk)}.sev.warning{background:var(--gap-soft);color:var(--gap)}.sev.info{background:#d1e9ff;color:#175cd3}
p.unchanged,p.empty{color:var(--muted);margin:1rem 0 0}
ul.not-reviewed li{margin:.3rem 0;overflow-wrap:anywhere}
@media print{
@page{size:A4 landscape;margin:10mm}
body{background:#fff;font-size:8.5pt}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
header.top{position:static;box-shadow:none;border:0;padding:0 0 .4rem}
form.filters,nav.docs{display:none!important}
main{padding:0;max-width:none}
section.doc,section.not-reviewed{border:0;border-radius:0;padding:0;margin:0 0 1rem}
section.doc+section.doc{break-before:page}
table.ops thead th{position:static}
thead{display:table-header-group}
tr,dl.facts,figure.chart{break-inside:avoid}
h2,h3{break-after:avoid}
a{color:inherit;text-decoration:none}
.v{font-size:.8em}
}
"#;

/// The filters: by verdict, method, tag and text, and by a chart's bar (one question's
/// verdict). Without the script the page shows every operation and no filter. The state is
/// kept in the address's fragment (`#v=risk&m=POST`), so a filtered view can be linked.
pub const SCRIPT: &str = r##"
(function () {
  "use strict";
  var doc = document, root = doc.documentElement;
  var form = doc.getElementById("filters");
  var rows = Array.prototype.slice.call(doc.querySelectorAll("tr.operation"));
  var pick = null;

  function fit() {
    var top = doc.querySelector("header.top");
    if (top) root.style.setProperty("--hh", top.offsetHeight + "px");
    // Read back by a headless render (CI, tests/review_html.rs): the page fits its window.
    root.setAttribute("data-width", String(root.clientWidth));
    root.setAttribute("data-overflow", String(Math.max(0, root.scrollWidth - root.clientWidth)));
  }

  function checked() {
    return Array.prototype.filter.call(form.querySelectorAll("input[name=v]"), function (i) {
      return i.checked;
    }).map(function (i) { return i.value; });
  }

  function apply(remember) {
    var verdicts = checked();
    var method = form.elements.m ? form.elements.m.value : "";
    var tag = form.elements.t ? form.elements.t.value : "";
    var text = form.elements.q.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (row) {
      var v = row.getAttribute("data-v").split(" ");
      var ok = v.some(function (x) { return verdicts.indexOf(x) >= 0; }) &&
        (!method || row.getAttribute("data-m") === method) &&
        (!tag || row.getAttribute("data-t").split("\t").indexOf(tag) >= 0) &&
        (!text || row.textContent.toLowerCase().indexOf(text) >= 0) &&
        (!pick || v[pick[0]] === pick[1]);
      row.hidden = !ok;
      var next = row.nextElementSibling;
      if (next && next.classList.contains("notes")) next.hidden = !ok;
      if (ok) shown += 1;
    });
    doc.getElementById("shown").textContent = shown + " of " + rows.length + " operations";
    var chip = doc.getElementById("pick");
    chip.hidden = !pick;
    if (pick) chip.textContent = pick[2] + ": only " + pick[1] + " (clear)";
    if (remember) {
      var p = new URLSearchParams();
      if (verdicts.length < 4) p.set("v", verdicts.join(","));
      if (method) p.set("m", method);
      if (tag) p.set("t", tag);
      if (text) p.set("q", text);
      if (pick) p.set("pick", pick[0] + ":" + pick[1]);
      history.replaceState(null, "", p.toString() ? "#" + p.toString() : location.pathname + location.search);
    }
  }

  function restore() {
    var hash = location.hash.slice(1);
    if (hash.indexOf("=") < 0) return;
    var p = new URLSearchParams(hash);
    if (p.has("v")) {
      var want = p.get("v").split(",");
      form.querySelectorAll("input[name=v]").forEach(function (i) {
        i.checked = want.indexOf(i.value) >= 0;
      });
    }
    if (p.get("m") && form.elements.m) form.elements.m.value = p.get("m");
    if (p.get("t") && form.elements.t) form.elements.t.value = p.get("t");
    if (p.get("q")) form.elements.q.value = p.get("q");
    var at = (p.get("pick") || "").split(":");
    var q = /^[0-9]$/.test(at[0]) ? doc.querySelector(".bars .q[data-q='" + at[0] + "']") : null;
    pick = q && at[1] ? [Number(at[0]), at[1], q.textContent] : null;
  }

  if (form) {
    form.hidden = false;
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    form.addEventListener("input", function () { apply(true); });
    doc.getElementById("pick").addEventListener("click", function () { pick = null; apply(true); });
    doc.querySelectorAll(".seg[data-q]").forEach(function (seg) {
      seg.classList.add("live");
      seg.addEventListener("click", function () {
        var q = Number(seg.getAttribute("data-q"));
        pick = [q, seg.getAttribute("data-v"), doc.querySelector(".bars .q[data-q='" + q + "']").textContent];
        apply(true);
        var table = seg.closest("section").querySelector("table.ops");
        if (table) table.scrollIntoView({ block: "start" });
      });
    });
    restore();
    apply(false);
  }
  fit();
  window.addEventListener("load", fit);
  window.addEventListener("resize", fit);
})();
"##;

/// The verdicts' icons, drawn once and used by every badge: a check in a circle, a triangle, an
/// octagon with a cross and an open circle, told apart by shape in grey print too. No emoji:
/// a machine without an emoji font shows those as empty boxes.
pub const ICONS: &str = concat!(
    r##"<svg class="sprite" aria-hidden="true" focusable="false">"##,
    r##"<symbol id="i-good" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7.5" fill="currentColor"/><path d="M4.6 8.3l2.3 2.3 4.6-4.9" fill="none" stroke="#fff" stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round"/></symbol>"##,
    r##"<symbol id="i-gap" viewBox="0 0 16 16"><path d="M8 1.3 15.2 14.4H.8z" fill="currentColor" stroke="currentColor" stroke-width="1.2" stroke-linejoin="round"/><path d="M8 6v3.8" stroke="#fff" stroke-width="1.8" stroke-linecap="round"/><circle cx="8" cy="12.1" r="1" fill="#fff"/></symbol>"##,
    r##"<symbol id="i-risk" viewBox="0 0 16 16"><path d="M5 .6h6L15.4 5v6L11 15.4H5L.6 11V5z" fill="currentColor"/><path d="M5.4 5.4l5.2 5.2m0-5.2-5.2 5.2" stroke="#fff" stroke-width="1.9" stroke-linecap="round"/></symbol>"##,
    r##"<symbol id="i-na" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6.6" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M5 8h6" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></symbol>"##,
    "</svg>\n"
);
