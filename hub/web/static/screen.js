/* The hall screen (hub/screen): renders the hub's state pushed over Server-Sent Events.
   Plain ES5 so a five-year-old phone runs it; text goes in as text (textContent), never
   as markup. The round clock runs the same maths as the kiosk (shared/rounds.py
   RoundPlan.status, station/rounds.py RoundStore.current, station/widgets/clock.py
   describe) on the hub's time, which every "tick" event re-anchors. */
(function () {
  "use strict";
  var body = document.body;
  var VIEW = body.getAttribute("data-view");
  var LANG = body.getAttribute("data-lang");
  var I18N = JSON.parse(document.getElementById("i18n").textContent);
  var snap = null;
  var offset = null; /* hub time minus this browser's time, seconds */
  var lastTick = 0;
  var source = null;
  var page = 0;
  var pageTimer = null;
  /* how long a page of „Kde hraji?“ stays up; ?page=N in the address changes it */
  var PAGE_SECONDS = Math.max(2, Number((/[?&]page=(\d+)/.exec(location.search) || [0, 12])[1]));

  /* A message in the page's language; a missing translation falls back to English, a
     missing message to nothing — a catalogue key never reaches a reader — and is noted
     in window.samoobsluhaMissing (the tests read it). */
  var MISSING = window.samoobsluhaMissing = [];
  function t(key, values) {
    var entry = I18N[key];
    if (!entry && MISSING.indexOf(key) < 0) MISSING.push(key);
    var text = entry ? (entry[LANG] || entry.en || entry.cs || "") : "";
    if (values) {
      text = text.replace(/\{(\w+)\}/g, function (m, name) {
        return values[name] !== undefined ? String(values[name]) : m;
      });
    }
    return text;
  }
  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function fold(text) {
    var s = String(text).toLowerCase();
    if (s.normalize) s = s.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    return s;
  }
  function nowHub() { return Date.now() / 1000 + (offset || 0); }
  function name(id) { return id === null || id === undefined ? "" : (snap.players[String(id)] || "#" + id); }

  /* ---- the clock: shared/rounds.py + station/rounds.py + station/widgets/clock.py ---- */
  function endAt(p, now) {
    var end = p.start_at + p.basic_seconds + p.extra_seconds + p.paused_total;
    if (p.paused_at !== null) end += Math.max(0, now - p.paused_at);
    return end;
  }
  function status(p, now) {
    var end = endAt(p, now), phase, remaining;
    if (p.cancelled) { phase = "cancelled"; remaining = 0; }
    else if (now < p.start_at) { phase = "scheduled"; remaining = p.start_at - now; }
    else if (now >= end) { phase = "ended"; remaining = 0; }
    else { remaining = end - now; phase = remaining <= p.warning_seconds ? "warning" : "running"; }
    return { number: p.number, phase: phase, remaining: remaining, end_at: end, paused: p.paused_at !== null };
  }
  function current(plans, now, playout) {
    var running = null, scheduled = null, ended = null, i, p, s;
    for (i = 0; i < plans.length; i++) {
      p = plans[i];
      s = status(p, now);
      if (s.phase === "running" || s.phase === "warning") {
        if (!running || p.number > running.number) running = p;
      } else if (s.phase === "scheduled") {
        if (!scheduled || p.start_at < scheduled.start_at ||
            (p.start_at === scheduled.start_at && p.number < scheduled.number)) scheduled = p;
      } else if (s.phase === "ended" && now - s.end_at < playout) {
        if (!ended || s.end_at > ended[0] || (s.end_at === ended[0] && p.number > ended[1].number)) ended = [s.end_at, p];
      }
    }
    return running || scheduled || (ended && ended[1]) || null;
  }
  function formatRemaining(seconds) {
    var total = Math.max(0, Math.ceil(seconds));
    var hours = Math.floor(total / 3600), rest = total % 3600;
    var m = Math.floor(rest / 60), s = rest % 60;
    function two(n) { return n < 10 ? "0" + n : String(n); }
    return hours ? hours + ":" + two(m) + ":" + two(s) : two(m) + ":" + two(s);
  }
  function describe(st) {
    if (!st) return [t("kiosk.round.none"), "", ""];
    var n = { n: st.number };
    if (st.phase === "cancelled") return [t("kiosk.round.cancelled", n), "", ""];
    if (st.phase === "ended") return [t("kiosk.round.ended_label", n), "", t("kiosk.round.ended")];
    if (st.paused) return [t("kiosk.round.paused", n), formatRemaining(st.remaining), ""];
    if (st.phase === "scheduled") return [t("kiosk.round.scheduled", n), formatRemaining(st.remaining), ""];
    if (st.phase === "warning") return [t("kiosk.round.warning", n), formatRemaining(st.remaining), ""];
    return [t("kiosk.round.running", n), formatRemaining(st.remaining), ""];
  }
  var shownClock = "";
  function drawClock() {
    if (!snap || offset === null) return;
    var now = nowHub();
    var plan = current(snap.plans, now, snap.playout);
    var st = plan ? status(plan, now) : null;
    var parts = describe(st);
    var key = parts.join("|") + (st ? st.phase : "none");
    if (key === shownClock) return;
    shownClock = key;
    $("clock-title").textContent = parts[0];
    $("clock-digits").textContent = parts[1];
    $("clock-big").textContent = parts[2];
    $("clock-digits").style.display = parts[1] ? "" : "none";
    $("clock-big").style.display = parts[2] ? "" : "none";
    $("clock").className = "phase-" + (st ? st.phase : "none") + (st && st.paused ? " paused" : "");
  }

  /* ---- connection ---- */
  function setConn(on) {
    var c = $("conn");
    c.className = on ? "on" : "off";
    c.textContent = on ? "\u25CF " + t("screen.live") : "\u25CB " + t("screen.offline");
  }
  function connect() {
    if (source) source.close();
    /* the projector's token (?k=, printed by hub serve) keeps its live page a place of
       its own however many streams other devices hold */
    var key = /[?&]k=([A-Za-z0-9_-]+)/.exec(location.search);
    source = new EventSource(key ? "/events?k=" + key[1] : "/events");
    source.addEventListener("snap", function (e) {
      snap = JSON.parse(e.data);
      render();
    });
    source.addEventListener("patch", function (e) {
      if (!snap) return; /* a patch before the first snap cannot happen; be safe */
      var part = JSON.parse(e.data), key;
      for (key in part) if (part.hasOwnProperty(key)) snap[key] = part[key];
      render();
    });
    source.addEventListener("tick", function (e) {
      var data = JSON.parse(e.data);
      offset = data.now - Date.now() / 1000;
      lastTick = Date.now();
      setConn(true);
      drawClock();
    });
    source.onerror = function () { setConn(false); };
  }
  /* A hub that restarted, a Wi-Fi that dropped: no tick for a while means reconnect. */
  setInterval(function () {
    if (Date.now() - lastTick > 5000) { setConn(false); connect(); lastTick = Date.now(); }
  }, 1000);
  setInterval(drawClock, 250);

  /* ---- rendering ---- */
  function render() {
    $("name").textContent = snap.name || "Samoobsluha";
    document.title = snap.name || "Samoobsluha";
    shownClock = "";
    drawClock();
    /* the prize list (after the last round) and the published sanctions, both views */
    listSection("prizes", snap.prizes, "print.prizes");
    listSection("sanctions", snap.sanctions, "print.sanctions.published");
    if (VIEW === "projector") renderWhere(); else renderPhone();
  }

  /* the standings as the server wrote them for this language (decimal commas in cs/sk) */
  function standingRows() {
    var rows = snap.standings.rows;
    return rows[LANG] || rows.en || [];
  }
  /* A long single word (the Polish „rozpoczynający“) with a soft hyphen after every
     vowel-consonant pair past the fourth letter: a 360 px phone breaks it there, with a
     hyphen, instead of scrolling sideways; a short one (ZH, DH) is left as it is. */
  function breakable(word) {
    if (word.length < 10 || word.indexOf(" ") >= 0) return word;
    return word.replace(/([aąeęioóuy])(?=[^aąeęioóuy][aąeęioóuy])/g, function (m, v, at) {
      return at >= 3 && at < word.length - 3 ? v + "\u00ad" : v;
    });
  }

  function resultWord(wins) {
    return t(wins >= 1 ? "tour.win" : wins > 0 ? "tour.draw" : "tour.loss");
  }
  function tableOf(id) {
    for (var i = 0; i < snap.where.length; i++) if (snap.where[i][0] === id) return snap.where[i];
    return null;
  }
  function headRow(cols) {
    var tr = el("tr");
    for (var i = 0; i < cols.length; i++) tr.appendChild(el("th", cols[i][0], cols[i][1] ? "n" : ""));
    return tr;
  }

  function renderMe() {
    var box = $("me");
    clear(box);
    var q = fold($("q").value.replace(/^\s+|\s+$/g, ""));
    try { localStorage.setItem("samoobsluha.q", $("q").value); } catch (e) { /* private mode */ }
    if (q.length < 2 || !snap) return;
    var found = [], id;
    for (id in snap.players) {
      if (fold(snap.players[id]).indexOf(q) >= 0) found.push(Number(id));
    }
    found.sort(function (a, b) { return fold(name(a)) < fold(name(b)) ? -1 : 1; });
    if (!found.length) {
      box.appendChild(el("p", snap.round ? t("kiosk.where.none", { round: snap.round, name: $("q").value.trim() }) : t("kiosk.where.no_pairings"), "muted"));
      return;
    }
    var rank = {}, shownRows = standingRows();
    for (var r = 0; r < snap.standings.ids.length; r++) rank[snap.standings.ids[r]] = shownRows[r];
    for (var i = 0; i < found.length && i < 6; i++) {
      var pid = found[i], card = el("div", null, "card");
      card.setAttribute("data-player", pid);
      var w = tableOf(pid), group = (snap.division || {})[String(pid)];
      if (w) {
        card.appendChild(el("div", t("kiosk.where.round", { round: snap.round }), "muted"));
        card.appendChild(el("div", name(pid), "who"));
        if (group) card.appendChild(el("div", t("screen.division", { division: group }), "muted"));
        card.appendChild(el("div", t("screen.me.row", {
          table: w[1], opponent: w[2] !== null ? name(w[2]) : t("kiosk.where.bye")
        }), "where"));
        /* whose role: the searched player's own, said in words */
        if (w[3]) card.appendChild(el("div", t(w[3] === "ZH" ? "screen.me.zh" : "screen.me.dh", { name: name(pid) }), "role"));
      } else {
        card.appendChild(el("div", name(pid), "where"));
        card.appendChild(el("div", snap.round ? t("kiosk.where.none", { round: snap.round, name: name(pid) }) : t("kiosk.where.no_pairings"), "muted"));
      }
      var row = rank[pid];
      if (row) {
        /* the figures the rule set ranks by, in its own terms: PFS the balance
           (wins − losses), then points; ČAS and SSS wins, then spread */
        var cols = snap.standings.columns, cell = function (c) { return row[cols.indexOf(c)]; };
        card.appendChild(el("div", cols.indexOf("balance") >= 0
          ? t("screen.me.place_balance", { rank: cell("rank"), balance: cell("balance"), points: cell("points") })
          : t("screen.me.place", { rank: cell("rank"), wins: cell("wins"), spread: cell("spread") }), "rank"));
        /* „wykluczony“: expelled from the event (PFS zeroes his tally: this says why) */
        if (cols.indexOf("note") >= 0 && cell("note")) card.appendChild(el("div", cell("note"), "note"));
      }
      var games = snap.cards[String(pid)] || [];
      if (games.length) {
        card.appendChild(el("div", t("screen.me.games")));
        var table = el("table");
        table.appendChild(headRow([[t("tour.col.round"), 1], [t("tour.col.opponent")],
          [t("tour.col.started")], [t("tour.col.score"), 1], [t("tour.col.result")]]));
        for (var g = 0; g < games.length; g++) {
          var gm = games[g], tr = el("tr");
          var opp = gm[2] !== null ? name(gm[2]) : (gm[7] === "bye" || gm[7] === "" ? t("tour.bye") : "");
          if (gm[7] && gm[7] !== "bye") opp = (opp + " (" + t("tour.kind." + gm[7]) + ")").replace(/^ /, "");
          tr.appendChild(el("td", gm[0], "n"));
          tr.appendChild(el("td", opp, "nm"));
          tr.appendChild(el("td", gm[3] ? breakable(t("tour.role." + gm[3].toLowerCase())) : "", "role"));
          tr.appendChild(el("td", gm[4] + ":" + gm[5], "n"));
          tr.appendChild(el("td", resultWord(gm[6])));
          table.appendChild(tr);
        }
        card.appendChild(table);
      }
      box.appendChild(card);
    }
  }

  function renderPhone() {
    renderMe();
    /* results of the current round, as they are approved */
    $("results-title").textContent = snap.round ? t("screen.results.title", { round: snap.round }) : "";
    var rt = $("results-table");
    clear(rt);
    var byTable = {}, i;
    for (i = 0; i < snap.tables.length; i++) byTable[snap.tables[i][0]] = snap.tables[i];
    if (snap.round && !snap.results.length) {
      var tr0 = el("tr"); tr0.appendChild(el("td", t("screen.results.none"), "muted")); rt.appendChild(tr0);
    } else if (snap.results.length) {
      rt.appendChild(headRow([[t("tour.col.table"), 1], [t("tour.col.first")], [t("tour.col.score"), 1], [t("tour.col.second")]]));
      for (i = 0; i < snap.results.length; i++) {
        var res = snap.results[i], b = byTable[res[0]] || [res[0], null, null], tr = el("tr");
        tr.appendChild(el("td", res[0], "n"));
        tr.appendChild(el("td", name(b[1]), "nm"));
        tr.appendChild(el("td", res[1] + ":" + res[2], "n"));
        tr.appendChild(el("td", name(b[2]), "nm"));
        rt.appendChild(tr);
      }
    }
    /* standings */
    var st = snap.standings, stt = $("standings-table");
    clear(stt);
    if (!st.after) {
      $("standings-title").textContent = "";
      var tr1 = el("tr"); tr1.appendChild(el("td", t("screen.standings.none"), "muted")); stt.appendChild(tr1);
      return;
    }
    $("standings-title").textContent = t("tour.standings", { round: st.after });
    var numeric = { rank: 1, wins: 1, spread: 1, points: 1, turcas: 1, opp_wins: 1, starts: 1, balance: 1 };
    /* a phone is 360 px wide: rank, name and the rule set's first criteria, no sideways
       scrolling (the print and the projector carry the rest); PFS ranks by the balance,
       then points: those two, in that order, after the name (its Polish headers are long
       single words: five columns would not fit) */
    var shown = [], head = [], rows = standingRows();
    var pfs = st.columns.indexOf("balance") >= 0;
    if (pfs) shown = [st.columns.indexOf("rank"), st.columns.indexOf("name"),
                      st.columns.indexOf("balance"), st.columns.indexOf("points")];
    for (i = 0; i < st.columns.length && shown.length < 5 && !pfs; i++) {
      var cname = st.columns[i];
      if (cname === "club" || cname === "starts" || (cname === "points" && st.columns.indexOf("turcas") >= 0)) continue;
      shown.push(i);
    }
    for (i = 0; i < shown.length; i++) head.push([t("tour.col." + st.columns[shown[i]]), numeric[st.columns[shown[i]]]]);
    stt.appendChild(headRow(head));
    var groups = st.divisions || [];
    for (i = 0; i < rows.length; i++) {
      if (groups.length && (i === 0 || groups[i] !== groups[i - 1])) {
        /* a hall of several divisions: each one's table under its name, ranks its own */
        var gtr = el("tr"), gth = el("th", t("screen.division", { division: groups[i] }), "division");
        gth.setAttribute("colspan", String(shown.length));
        gtr.appendChild(gth);
        stt.appendChild(gtr);
      }
      var row = el("tr"), note = st.columns.indexOf("note");
      for (var c = 0; c < shown.length; c++) {
        var col = st.columns[shown[c]], td = el("td", rows[i][shown[c]], numeric[col] ? "n" : col === "name" ? "nm" : "");
        /* the standings' note (an expelled player: „wykluczony“) beside his name, no
           column of its own on a 360 px phone */
        if (col === "name" && note >= 0 && rows[i][note]) td.appendChild(el("span", " \u00b7 " + rows[i][note], "note"));
        row.appendChild(td);
      }
      stt.appendChild(row);
    }
  }

  /* A table the server wrote for each language (rows of text), shown only when it has
     rows: the prize list, the sanctions published before the round. */
  function listSection(id, data, title) {
    var rows = data && data.rows ? (data.rows[LANG] || data.rows.en || []) : [];
    var section = $(id), table = $(id + "-table"), i, c;
    clear(table);
    section.hidden = rows.length === 0;
    if (!rows.length) return;
    $(id + "-title").textContent = t(title);
    /* a column nobody has a value in (no shared prize: nobody's share) is left out */
    var cols = [], head = [];
    for (c = 0; c < data.columns.length; c++) {
      for (i = 0; i < rows.length; i++) if (rows[i][c]) { cols.push(c); break; }
    }
    for (c = 0; c < cols.length; c++) head.push([t("tour.col." + data.columns[cols[c]]), false]);
    table.appendChild(headRow(head));
    for (i = 0; i < rows.length; i++) {
      var tr = el("tr");
      for (c = 0; c < cols.length; c++) tr.appendChild(el("td", rows[i][cols[c]], data.columns[cols[c]] === "name" ? "nm" : ""));
      table.appendChild(tr);
    }
  }

  /* ---- projector: „Kde hraji?“, every player by name, paging when long ----
     The clock has a fixed height, so the rows' room is known before the first paint;
     the rows per column come from the room measured and are checked against it. */
  function renderWhere() {
    $("where-title").textContent = snap.round ? t("kiosk.where.title") + " \u2014 " + t("kiosk.where.round", { round: snap.round }).replace(/:$/, "") : t("kiosk.where.no_pairings");
    page = 0;
    drawWherePage();
    if (pageTimer) clearInterval(pageTimer);
    pageTimer = setInterval(function () { page += 1; drawWherePage(); }, PAGE_SECONDS * 1000);
  }
  function whereRow(w) {
    var line = el("div", null, "wrow");
    line.appendChild(el("span", name(w[0]), "wname"));
    line.appendChild(el("span", t("tour.col.table") + " " + w[1], "wtable"));
    line.appendChild(el("span", w[2] !== null ? name(w[2]) : t("kiosk.where.bye"), "wopp"));
    return line;
  }
  function fill(cols, rows, ncols, perCol, from) {
    clear(cols);
    for (var c = 0; c < ncols; c++) {
      var col = el("div", null, "wcol");
      for (var i = 0; i < perCol; i++) {
        var k = from + c * perCol + i;
        if (k >= rows.length) break;
        col.appendChild(whereRow(rows[k]));
      }
      cols.appendChild(col);
    }
    /* the tables in a straight line: every name in a column as wide as its longest */
    var colsNow = cols.querySelectorAll(".wcol");
    for (var n = 0; n < colsNow.length; n++) {
      var names = colsNow[n].querySelectorAll(".wname"), widest = 0, j;
      for (j = 0; j < names.length; j++) widest = Math.max(widest, names[j].scrollWidth);
      for (j = 0; j < names.length; j++) names[j].style.width = Math.ceil(widest) + 2 + "px";
    }
  }
  function overflows(cols) {
    var bottom = cols.getBoundingClientRect().bottom, rows = cols.querySelectorAll(".wrow");
    for (var i = 0; i < rows.length; i++) if (rows[i].getBoundingClientRect().bottom > bottom + 0.5) return true;
    return false;
  }
  function drawWherePage() {
    var cols = $("where-cols");
    clear(cols);
    var rows = snap.where;
    if (!rows.length) { $("where-page").textContent = ""; return; }
    /* one row, measured, tells the height of every row and the letters' size: a column
       is at least 24 letters wide (a whole name, the table, the start of the opponent),
       so a 4:3 projector gets one column, a 16:9 one two */
    fill(cols, rows, 1, 1, 0);
    var probe = cols.querySelector(".wrow");
    var rowPx = probe ? probe.getBoundingClientRect().height : window.innerHeight * 0.05;
    var fontPx = probe ? parseFloat(window.getComputedStyle(probe).fontSize) : 20;
    var ncols = Math.max(1, Math.min(3, Math.floor(cols.getBoundingClientRect().width / (24 * fontPx))));
    var room = cols.getBoundingClientRect().height;
    var perCol = Math.max(1, Math.floor(room / Math.max(1, rowPx)));
    var perPage, pages;
    for (;;) {
      perPage = perCol * ncols;
      pages = Math.ceil(rows.length / perPage);
      page = page % pages;
      fill(cols, rows, ncols, perCol, page * perPage);
      if (perCol === 1 || !overflows(cols)) break;
      perCol -= 1;
    }
    $("where-page").textContent = pages > 1 ? t("screen.page", { page: page + 1, pages: pages }) : "";
  }

  /* ---- start ---- */
  var links = document.querySelectorAll("#langs a");
  for (var i = 0; i < links.length; i++) {
    if (links[i].getAttribute("data-lang") === LANG) links[i].className = "sel";
  }
  $("find-label").textContent = t("screen.find");
  try { $("q").value = localStorage.getItem("samoobsluha.q") || ""; } catch (e) { /* private mode */ }
  $("q").addEventListener("input", function () { if (snap) renderMe(); });
  window.addEventListener("resize", function () { if (snap && VIEW === "projector") drawWherePage(); });
  setConn(false);
  /* the state the page was served with: drawn before the first paint */
  try {
    var boot = JSON.parse($("boot").textContent);
    if (boot.snap && boot.snap.v) {
      snap = boot.snap;
      offset = boot.now - Date.now() / 1000;
      lastTick = Date.now();
      render();
    }
  } catch (e) { /* no state served: wait for the stream */ }
  connect();
})();
