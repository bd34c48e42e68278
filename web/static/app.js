// liuren web: the JavaScript on top of the server-rendered pages (everything works without it).
// - 類相 tooltips on branches and generals
// - instant filters of the judgments (kind, valence, book), kept in the URL
// - a judgment clicked opens its chain without reloading (the server renders it: the same HTML
//   as /board?…&why=ID), and the chain's graph is drawn with cytoscape + dagre
// - the search box offers every rule name (both languages)
(function () {
  "use strict";
  var $ = function (s, el) { return (el || document).querySelector(s); };
  var $$ = function (s, el) { return Array.prototype.slice.call((el || document).querySelectorAll(s)); };

  // ---- 類相 tooltips
  var tip = $("#tip");
  if (!tip) { tip = document.createElement("div"); tip.className = "tip"; tip.hidden = true; document.body.appendChild(tip); }
  function bindTips(root) {
    $$(".sym[title]", root).forEach(function (el) {
      el.setAttribute("data-imagery", el.getAttribute("title"));     // the server's title, shown as a richer tip
      el.removeAttribute("title");
      el.addEventListener("mouseenter", function () {
        tip.textContent = el.getAttribute("data-imagery");
        var r = el.getBoundingClientRect();
        var board = el.closest(".board");
        if (board && window.innerWidth <= 700) {
          // a phone: the box goes under the whole board, never over it
          var b = board.getBoundingClientRect();
          tip.classList.add("below");
          tip.style.left = (window.scrollX + b.left) + "px";
          tip.style.top = (window.scrollY + b.bottom + 4) + "px";
        } else {
          tip.classList.remove("below");
          tip.style.left = (window.scrollX + r.left) + "px";
          tip.style.top = (window.scrollY + r.bottom + 4) + "px";
        }
        tip.hidden = false;
      });
      el.addEventListener("mouseleave", function () { tip.hidden = true; });
    });
  }
  bindTips(document);

  // ---- filters
  var filters = $("#filters");
  function applyFilters(push) {
    if (!filters) return;
    var sel = function (name) { return $$("input[name=" + name + "]:checked", filters).map(function (i) { return i.value; }); };
    var kinds = sel("kind"), vals = sel("valence"), books = sel("book");
    $$("li.judgment").forEach(function (li) {
      var b = (li.getAttribute("data-books") || "").split("|");
      var ok = (!kinds.length || kinds.indexOf(li.getAttribute("data-kind")) >= 0) &&
               (!vals.length || vals.indexOf(li.getAttribute("data-valence")) >= 0) &&
               (!books.length || books.some(function (x) { return b.indexOf(x) >= 0; }));
      li.hidden = !ok;
    });
    $$(".judgments .kind").forEach(function (k) { k.hidden = !$$("li.judgment", k).some(function (li) { return !li.hidden; }); });
    if (push) {
      var u = new URL(location.href);
      ["kind", "valence", "book"].forEach(function (n) { u.searchParams.delete(n); });
      kinds.forEach(function (v) { u.searchParams.append("kind", v); });
      vals.forEach(function (v) { u.searchParams.append("valence", v); });
      books.forEach(function (v) { u.searchParams.append("book", v); });
      history.replaceState(null, "", u.pathname + u.search + u.hash);
      $$("a[data-why]").forEach(function (a) {
        var h = new URL(a.href); ["kind", "valence", "book"].forEach(function (n) { h.searchParams.delete(n); });
        u.searchParams.forEach(function (v, k) { if (["kind", "valence", "book"].indexOf(k) >= 0) h.searchParams.append(k, v); });
        a.href = h.pathname + h.search + h.hash;
      });
    }
  }
  if (filters) {
    filters.addEventListener("change", function (ev) {
      if (ev.target && ev.target.hasAttribute("data-submit")) { filters.submit(); return; }   // placements: the server's
      applyFilters(true);
    });
    applyFilters(false);
  }

  // ---- the chain's graph
  var cy = null;
  function drawGraph() {
    var data = $("#chain-graph"), box = $("#graph");
    if (!data || !box || typeof cytoscape === "undefined") return;
    var g = JSON.parse(data.textContent);
    if (typeof cytoscapeDagre !== "undefined" && !drawGraph.registered) { cytoscape.use(cytoscapeDagre); drawGraph.registered = true; }
    cy = cytoscape({
      container: box, elements: g.nodes.concat(g.edges), wheelSensitivity: 0.3,
      style: [
        { selector: "node", style: { "label": "data(label)", "font-size": 12, "text-wrap": "wrap", "text-max-width": 110,
            "text-valign": "center", "text-halign": "center", "width": 120, "height": 34, "shape": "round-rectangle",
            "background-color": "#f3ead8", "border-width": 1, "border-color": "#b9a983", "color": "#222" } },
        { selector: "node[kind = 'firing']", style: { "background-color": "#e8f0fb", "border-color": "#1f4e8c", "font-weight": "bold" } },
        { selector: "node[?target]", style: { "background-color": "#7a2e1f", "color": "#fff", "border-color": "#4a160c" } },
        { selector: "node[?defeats]", style: { "background-color": "#f7d9d4", "border-color": "#a3271b" } },
        { selector: "node[kind = 'cast']", style: { "shape": "tag", "background-color": "#efe6cf" } },
        { selector: "node[origin = 'table']", style: { "background-color": "#ffffff", "border-style": "dashed" } },
        { selector: "node[origin = 'board']", style: { "border-color": "#2b6cb0", "border-width": 2 } },
        { selector: "edge", style: { "width": 1.2, "line-color": "#a99c80", "target-arrow-color": "#a99c80",
            "target-arrow-shape": "triangle", "curve-style": "bezier", "arrow-scale": 0.8 } },
        { selector: "edge[role = 'defeats']", style: { "line-color": "#a3271b", "target-arrow-color": "#a3271b", "line-style": "dashed" } },
        { selector: ":selected", style: { "border-width": 3, "border-color": "#e0a100" } }
      ],
      layout: { name: "preset" }
    });
    // laid out, then never shrunk below a readable size: a long chain is panned, not made unreadable
    var lay = cy.layout({ name: (drawGraph.registered ? "dagre" : "breadthfirst"), rankDir: "LR", nodeSep: 8, rankSep: 40, directed: true });
    lay.one("layoutstop", function () {
      if (cy.zoom() < 1) {
        cy.zoom(1);
        var t = cy.$("node[?target]");
        cy.center(t.length ? t : cy.nodes());
      }
    });
    lay.run();
    cy.on("tap", "node", function (ev) { showNode(ev.target.data()); });
  }
  function esc(s) { var d = document.createElement("div"); d.textContent = s == null ? "" : String(s); return d.innerHTML; }
  function showNode(d) {
    var info = $("#nodeinfo"); if (!info) return;
    var h = "";
    if (d.kind === "firing") {
      h = "<b>" + esc(d.label) + "</b><br>" + esc(d.reading) + (d.valence ? "〔" + esc(d.valence) + "〕" : "");
      (d.quotes || []).forEach(function (q) { h += "<blockquote class='quote'>" + (q.quote ? "「" + esc(q.quote) + "」" : "") + "<cite>" + esc(q.cite) + "</cite></blockquote>"; });
      (d.calc || []).forEach(function (c) { h += "<div>＝ " + esc(c) + "</div>"; });
      $$(".chain-steps > li").forEach(function (li) { li.classList.toggle("active", li.getAttribute("data-node") === d.id); });
    } else if (d.kind === "cast") {
      h = "<b>" + esc(d.label) + "</b><br>" + esc(d.text) + (d.verse ? "<blockquote class='quote'>「" + esc(d.verse) + "」<cite>" + esc(d.book) + "</cite></blockquote>" : "");
    } else {
      h = "<b>" + esc(d.label) + "</b><br><span class='origin'>" + esc(d.origin_word) + (d.type_word ? " · " + esc(d.type_word) : "") + "</span>";
    }
    info.innerHTML = h;
  }
  function bindSteps() {
    $$(".chain-steps > li[data-node]").forEach(function (li) {
      li.addEventListener("click", function () {
        if (!cy) return;
        var n = cy.getElementById(li.getAttribute("data-node"));
        if (n && n.length) { cy.$(":selected").unselect(); n.select(); cy.animate({ center: { eles: n } }, { duration: 200 }); showNode(n.data()); }
      });
    });
  }
  drawGraph(); bindSteps();

  // ---- open a chain in place
  function markSelected(id) {
    $$("li.judgment").forEach(function (li) { li.classList.toggle("selected", li.getAttribute("data-rule") === id); });
  }
  function openChain(href, push) {
    return fetch(href, { headers: { "Accept": "text/html" } }).then(function (resp) {
      return resp.text().then(function (text) {
        var doc = new DOMParser().parseFromString(text, "text/html");
        var fresh = doc.getElementById("chain"), here = $("#chain");
        if (!fresh || !here) { location.href = href; return; }
        here.innerHTML = fresh.innerHTML; here.hidden = fresh.hidden;
        if (doc.title) document.title = doc.title;
        if (push) history.pushState({ chain: true }, "", href);
        var why = new URL(href, location.href).searchParams.get("why");
        markSelected(why); $("#why") && ($("#why").value = why || "");
        bindTips(here); drawGraph(); bindSteps(); bindClose();
        here.scrollIntoView({ behavior: "smooth", block: "start" });
      });
    }).catch(function () { location.href = href; });
  }
  function bindClose() {
    var c = $("#chain a.close");
    if (c) c.addEventListener("click", function (ev) { ev.preventDefault(); $("#chain").hidden = true; markSelected(null);
      history.pushState(null, "", c.getAttribute("href")); });
  }
  bindClose();
  $$("a[data-why]").forEach(function (a) {
    a.addEventListener("click", function (ev) {
      if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
      ev.preventDefault(); openChain(a.href, true);
    });
  });
  var search = $("#search");
  if (search) {
    search.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var u = new URL(location.origin + "/board");
      new FormData(search).forEach(function (v, k) { u.searchParams.append(k, v); });
      openChain(u.pathname + u.search + "#chain", true);
    });
    var why = $("#why"), filled = false;
    why && why.addEventListener("focus", function () {
      if (filled) return; filled = true;
      fetch("/api/names").then(function (r) { return r.json(); }).then(function (names) {
        var dl = $("#names"), seen = {};
        names.forEach(function (n) {
          [n.name, n.ja].forEach(function (x) {
            if (!x || seen[x]) return; seen[x] = 1;
            var o = document.createElement("option"); o.value = x; o.label = n.kind + " " + n.id; dl.appendChild(o);
          });
        });
      });
    });
  }
  window.addEventListener("popstate", function () {
    if ($("#chain")) { var w = new URL(location.href).searchParams.get("why");
      if (w) openChain(location.href, false); else { $("#chain").hidden = true; markSelected(null); } }
  });
  var cur = new URL(location.href).searchParams.get("why"); if (cur) markSelected(cur);

  // ---- the form: the browser's zone, and no empty fields in the URL
  var cast = $("#castform");
  if (cast) {
    var tz = $("#tz");
    try { if (tz && !tz.value) tz.placeholder = Intl.DateTimeFormat().resolvedOptions().timeZone || tz.placeholder; } catch (e) {}
    var mom = $("#moment");
    if (mom && !mom.value) {            // now, on this browser's clock (the server's default is its own now)
      var d = new Date(), pad = function (n) { return (n < 10 ? "0" : "") + n; };
      mom.value = d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()) + "T" + pad(d.getHours()) + ":" + pad(d.getMinutes());
    }
    cast.addEventListener("submit", function () {
      var day = $("#day");
      if (day && day.value.trim()) { $("#moment").value = ""; $("#tz").value = ""; }
      else if (tz && !tz.value && $("#moment").value) { tz.value = tz.placeholder; }
      $$("input, select", cast).forEach(function (el) { if (!el.value) el.disabled = true; });
      setTimeout(function () { $$("input, select", cast).forEach(function (el) { el.disabled = false; }); }, 0);
    });
  }
})();
