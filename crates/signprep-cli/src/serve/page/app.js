// signprep serve's page: each file dropped is checked (POST /v1/check),
// scanned (POST /v1/scan) and drawn page by page (POST /v1/preview); each
// finding's code is explained (GET /v1/explain/{code}). A template (.docx,
// .odt) goes the same way with its own media type: the server converts it.
// Nothing leaves this server; nothing is kept on it.
"use strict";
(function () {
  var MAX_PAGES = 40;
  var token = "";
  var explained = {};
  var files = document.getElementById("files");
  var drop = document.getElementById("drop");
  var results = document.getElementById("results");
  var verdict = document.getElementById("verdict");
  var tokenRow = document.getElementById("token-row");
  var tokenInput = document.getElementById("token");
  var pending = null;
  var tally = { files: 0, done: 0, errors: 0, warnings: 0, failed: 0 };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  var TEMPLATE_TYPES = {
    docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    odt: "application/vnd.oasis.opendocument.text"
  };
  // A document's media type: a template's by its extension, else a PDF's.
  function documentType(file) {
    var ext = /\.([a-z]+)$/i.exec(file.name);
    return (ext && TEMPLATE_TYPES[ext[1].toLowerCase()]) || "application/pdf";
  }
  // Where a finding stands in a template, as the command line writes it:
  // `body, table row 2 column 3, paragraph 14 ("snippet")`.
  function sourcePlace(s) {
    var out = String(s.part || "").replace(/_/g, " ");
    if (s.row && s.column) out += ", table row " + s.row + " column " + s.column;
    out += ", paragraph " + s.paragraph;
    if (s.snippet) out += " (\"" + s.snippet + "\")";
    return out;
  }

  function call(method, path, body, type) {
    var headers = {};
    if (type) headers["Content-Type"] = type;
    if (token) headers["Authorization"] = "Bearer " + token;
    return fetch(path, { method: method, headers: headers, body: body }).then(function (r) {
      if (r.status === 401) {
        tokenRow.hidden = false;
        tokenInput.focus();
        throw new Error("this server needs its access token (enter it above, then choose the files again)");
      }
      return r;
    });
  }
  function json(r) {
    return r.text().then(function (t) {
      try { return JSON.parse(t); } catch (e) { throw new Error("the server answered " + r.status + " with no JSON"); }
    });
  }
  function errorText(body, status) {
    if (body && body.error && body.error.message) return body.error.message + " [" + body.error.code + "]";
    return "the server answered " + status;
  }

  function showVerdict() {
    verdict.textContent = "";
    var big = el("p", "big");
    var detail = el("p");
    if (tally.done < tally.files) {
      verdict.dataset.state = "busy";
      big.textContent = "Checking " + (tally.done + 1 > tally.files ? tally.files : tally.done + 1) + " of " + plural(tally.files, "file") + "…";
    } else if (tally.errors + tally.failed > 0) {
      verdict.dataset.state = "fail";
      big.textContent = "Not ready to send";
      var parts = [];
      if (tally.errors) parts.push(plural(tally.errors, "error-level finding"));
      if (tally.failed) parts.push(plural(tally.failed, "file") + " could not be checked");
      if (tally.warnings) parts.push(plural(tally.warnings, "warning"));
      detail.textContent = parts.join(", ") + " in " + plural(tally.files, "file") + ".";
    } else {
      verdict.dataset.state = "pass";
      big.textContent = "Ready to send";
      detail.textContent = "No error-level finding in " + plural(tally.files, "file") +
        (tally.warnings ? " (" + plural(tally.warnings, "warning") + ")." : ".");
    }
    verdict.appendChild(big);
    verdict.appendChild(detail);
  }

  function explain(code, into) {
    if (!explained[code]) {
      explained[code] = call("GET", "/v1/explain/" + encodeURIComponent(code)).then(function (r) {
        return json(r).then(function (b) { return r.ok ? b.doc : errorText(b, r.status); });
      });
    }
    explained[code].then(function (doc) { into.textContent = doc; }, function (e) { into.textContent = String(e.message || e); });
  }

  function findingItem(f) {
    var li = el("li", f.severity);
    var det = el("details");
    var sum = el("summary");
    sum.appendChild(el("span", "sev", f.severity));
    // A template's finding leads with its place there, where its author fixes it.
    if (f.source) sum.appendChild(el("span", "place", "In the template: " + sourcePlace(f.source)));
    sum.appendChild(el("code", null, f.code));
    sum.appendChild(document.createTextNode(": " + f.message));
    det.appendChild(sum);
    if (f.hint) det.appendChild(el("p", "hint", "Hint: " + f.hint));
    var doc = el("div", "explain", "…");
    det.appendChild(doc);
    explain(f.code, doc);
    li.appendChild(det);
    return li;
  }

  function card(file) {
    var sec = el("section", "doc");
    sec.appendChild(el("h2", null, file.name));
    var summary = el("p", "summary", "Checking…");
    sec.appendChild(summary);
    var body = el("div", "body");
    var pages = el("div", "pages");
    var side = el("div", "findings");
    side.appendChild(el("h3", null, "Findings"));
    var list = el("ol");
    side.appendChild(list);
    var actions = el("p", "actions");
    side.appendChild(actions);
    body.appendChild(pages);
    body.appendChild(side);
    sec.appendChild(body);
    results.appendChild(sec);
    return { sec: sec, summary: summary, body: body, pages: pages, list: list, actions: actions };
  }

  function showFindings(c, findings, failure) {
    var errors = 0, warnings = 0;
    findings.forEach(function (f, i) {
      if (f.severity === "error") errors++;
      if (f.severity === "warning") warnings++;
      var item = findingItem(f);
      // The first finding opens with its explanation; the others on a click or Enter.
      if (i === 0) item.firstChild.open = true;
      c.list.appendChild(item);
    });
    if (failure) {
      c.list.appendChild(findingItem(failure));
      tally.failed++;
    } else if (!findings.length) {
      c.list.appendChild(el("li", "none", "No findings."));
    }
    tally.errors += errors;
    tally.warnings += warnings;
    if (failure) {
      c.summary.className = "summary fail";
      c.summary.textContent = "Could not be checked: " + failure.message;
    } else if (errors) {
      c.summary.className = "summary fail";
      c.summary.textContent = "Not ready: " + plural(errors, "error-level finding") + (warnings ? ", " + plural(warnings, "warning") : "");
    } else {
      c.summary.className = "summary pass";
      c.summary.textContent = "Ready" + (warnings ? " (" + plural(warnings, "warning") + ")" : ": no findings");
    }
  }

  function checkOutput(r) {
    return json(r).then(function (b) {
      if (b.files && b.files[0]) {
        var f = b.files[0];
        var failure = f.error ? { severity: "error", code: f.error.code, message: f.error.message } : null;
        return { findings: f.findings || [], failure: failure };
      }
      return { findings: [], failure: { severity: "error", code: (b.error && b.error.code) || "internal_error", message: errorText(b, r.status) } };
    });
  }

  function download(c, name, text, label) {
    var a = el("a", "download", label);
    a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    a.download = name;
    c.actions.appendChild(a);
  }

  function drawPages(c, file, name, count) {
    var shown = Math.min(count, MAX_PAGES);
    var chain = Promise.resolve();
    for (var i = 1; i <= shown; i++) {
      (function (page) {
        var fig = el("figure");
        var img = el("img");
        img.alt = "Page " + page + " of " + name + " with its tags and form fields drawn";
        var cap = el("figcaption", null, "Page " + page + " of " + count);
        fig.appendChild(img);
        fig.appendChild(cap);
        c.pages.appendChild(fig);
        chain = chain.then(function () {
          return call("POST", "/v1/preview?page=" + page + "&name=" + encodeURIComponent(name), file, documentType(file))
            .then(function (r) {
              if (r.ok) return r.blob().then(function (b) { img.src = URL.createObjectURL(b); });
              return json(r).then(function (b) { cap.textContent = "Page " + page + ": " + errorText(b, r.status); cap.className = "failed"; });
            })
            .catch(function (e) { cap.textContent = "Page " + page + ": " + (e.message || e); cap.className = "failed"; });
        });
      })(i);
    }
    if (count > shown) c.pages.appendChild(el("p", null, (count - shown) + " more pages not drawn here (signprep preview draws them all)."));
    if (!count) c.pages.appendChild(el("p", null, "The document has no page to draw."));
    return chain;
  }

  function checkPdf(file) {
    var c = card(file);
    var name = file.name;
    var q = "name=" + encodeURIComponent(name);
    var type = documentType(file);
    var scanned = call("POST", "/v1/scan?data_fields=true&" + q, file, type).then(json);
    var checked = call("POST", "/v1/check?" + q, file, type).then(checkOutput);
    return Promise.all([checked, scanned]).then(function (got) {
      var check = got[0], scan = got[1];
      showFindings(c, check.findings, check.failure);
      if (scan.status === "ok") {
        var stem = name.replace(/\.(pdf|docx|odt)$/i, "");
        download(c, stem + ".data_fields.json", JSON.stringify({ data_fields: scan.data_fields || [] }, null, 2) + "\n",
          "Download the data fields (JSON)");
        return drawPages(c, file, name, (scan.pages || []).length);
      }
      c.body.className = "body nopages";
      c.pages.remove();
    });
  }

  function checkJson(file) {
    var c = card(file);
    c.body.className = "body nopages";
    c.pages.remove();
    return call("POST", "/v1/check?name=" + encodeURIComponent(file.name), file, "application/json")
      .then(checkOutput)
      .then(function (check) { showFindings(c, check.findings, check.failure); });
  }

  // A manifest (.toml) with the PDFs dropped beside it: checked as a form
  // (POST /v1/check), and the v1 pack body it builds (POST /v1/pack) to
  // download, as `signprep pack` writes it. Each PDF goes by its file name,
  // which the manifest's paths must match.
  function checkManifest(file, pdfs) {
    var c = card(file);
    c.body.className = "body nopages";
    c.pages.remove();
    function form() {
      var f = new FormData();
      f.append("manifest", file, file.name);
      pdfs.forEach(function (p) { f.append("pdf", p, p.name); });
      return f;
    }
    var q = "?name=" + encodeURIComponent(file.name);
    return call("POST", "/v1/check" + q, form()).then(checkOutput).then(function (check) {
      showFindings(c, check.findings, check.failure);
      if (check.failure || check.findings.some(function (f) { return f.severity === "error"; })) return;
      return call("POST", "/v1/pack" + q, form()).then(function (r) {
        if (!r.ok) return;
        return r.text().then(function (text) {
          download(c, file.name.replace(/\.(toml|json)$/i, "") + ".pack.json", text,
            "Download the request body (v1 pack, JSON)");
        });
      });
    });
  }

  function run(list) {
    results.textContent = "";
    tally = { files: list.length, done: 0, errors: 0, warnings: 0, failed: 0 };
    showVerdict();
    var chain = Promise.resolve();
    var pdfs = list.filter(function (f) { return !/\.(json|toml)$/i.test(f.name); });
    list.forEach(function (file) {
      chain = chain.then(function () {
        var isJson = /\.json$/i.test(file.name) || file.type === "application/json";
        var work = /\.toml$/i.test(file.name) ? checkManifest(file, pdfs)
          : isJson ? checkJson(file) : checkPdf(file);
        return work.catch(function (e) {
          tally.failed++;
          var p = el("p", "failed", file.name + ": " + (e.message || e));
          results.appendChild(p);
        }).then(function () { tally.done++; showVerdict(); });
      });
    });
    return chain.then(function () { document.body.dataset.done = String(tally.files); });
  }

  function start(fileList) {
    var list = Array.prototype.slice.call(fileList || []);
    if (!list.length) return;
    pending = list;
    delete document.body.dataset.done;
    run(list);
  }

  files.addEventListener("change", function () { start(files.files); });
  ["dragenter", "dragover"].forEach(function (t) {
    drop.addEventListener(t, function (e) { e.preventDefault(); drop.classList.add("over"); });
  });
  ["dragleave", "drop"].forEach(function (t) {
    drop.addEventListener(t, function () { drop.classList.remove("over"); });
  });
  drop.addEventListener("drop", function (e) {
    e.preventDefault();
    if (e.dataTransfer) start(e.dataTransfer.files);
  });
  document.getElementById("token-go").addEventListener("click", function () {
    token = tokenInput.value.trim();
    explained = {};
    if (pending) run(pending);
  });
  document.body.dataset.ready = "1";
})();
