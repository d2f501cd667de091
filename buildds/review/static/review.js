// buildds review: keyboard shortcuts and the page highlight. Plain JS, no build step, no
// network: everything comes from the app itself. The pages work without it (links, forms).
(function () {
  "use strict";
  var body = document.body;
  var page = body.getAttribute("data-page");

  function typing(el) {
    if (!el) return false;
    var tag = el.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable;
  }
  function go(id) {
    var a = document.getElementById(id);
    if (a && a.href) window.location.href = a.href;
  }
  function toggleHelp() {
    var help = document.getElementById("help");
    if (help) help.hidden = !help.hidden;
  }
  var helpButton = document.getElementById("help-toggle");
  if (helpButton) helpButton.addEventListener("click", toggleHelp);

  // filters submit on change
  Array.prototype.forEach.call(document.querySelectorAll("select.auto-submit"), function (s) {
    s.addEventListener("change", function () { s.form.submit(); });
  });

  // the statement's box over the page image, in percent of the page
  function placeHighlight() {
    var box = document.getElementById("highlight");
    if (!box) return;
    var b = box.getAttribute("data-bbox").split(",").map(Number);
    var size = box.getAttribute("data-size").split(",").map(Number);
    var pad = 3;
    box.style.left = ((b[0] - pad) / size[0] * 100) + "%";
    box.style.top = ((b[1] - pad) / size[1] * 100) + "%";
    box.style.width = ((b[2] - b[0] + 2 * pad) / size[0] * 100) + "%";
    box.style.height = ((b[3] - b[1] + 2 * pad) / size[1] * 100) + "%";
    box.classList.add("placed");
  }
  placeHighlight();

  // queue: a selected row moved with j/k, opened with o/Enter
  var rows = Array.prototype.slice.call(document.querySelectorAll("#queue tr.row"));
  var selected = 0;
  function select(i) {
    if (!rows.length) return;
    selected = Math.max(0, Math.min(rows.length - 1, i));
    rows.forEach(function (r, n) { r.classList.toggle("selected", n === selected); });
    rows[selected].scrollIntoView({block: "nearest"});
  }
  if (page === "queue") select(0);

  // item: the verdict form
  var form = document.getElementById("verdict-form");
  var chosen = null;
  function choose(action, focusId) {
    if (!document.getElementById("action-" + action)) return;  // not a verdict this item takes
    chosen = action;
    Array.prototype.forEach.call(document.querySelectorAll("button.action"), function (b) {
      b.classList.toggle("chosen", b.value === action);
    });
    var el = document.getElementById(focusId);
    if (el) el.focus();
  }
  function send(action) {
    var button = document.getElementById("action-" + action);
    if (form && button) form.requestSubmit(button);
  }
  if (form) {
    form.addEventListener("keydown", function (ev) {
      var t = ev.target;
      var enter = ev.key === "Enter";
      if (enter && t.tagName === "INPUT") {
        ev.preventDefault();
        var panel = document.getElementById("edit-panel");
        send(chosen || (panel && panel.open ? "edit" : "accept"));
      } else if (enter && (ev.ctrlKey || ev.metaKey) && (t.tagName === "TEXTAREA" || t.tagName === "SELECT")) {
        ev.preventDefault();
        send(chosen || "edit");
      }
    });
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") {
      if (document.activeElement) document.activeElement.blur();
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) return;
    var key = ev.key;
    if (key === "?") { toggleHelp(); ev.preventDefault(); return; }
    if (page === "queue") {
      if (key === "j" || key === "n") select(selected + 1);
      else if (key === "k" || key === "p") select(selected - 1);
      else if ((key === "o" || key === "Enter") && rows.length) window.location.href = rows[selected].getAttribute("data-href");
      else return;
      ev.preventDefault();
      return;
    }
    if (page !== "item") return;
    if (key === "j" || key === "n") go("next");
    else if (key === "k" || key === "p") go("prev");
    else if (key === "u") go("to-queue");
    else if (key === "a") send("accept");
    else if (key === "r") choose("reject", "note");
    else if (key === "x") choose("exclude", "note");
    else if (key === "e") {
      var panel = document.getElementById("edit-panel");
      if (!panel) return;
      panel.open = true;
      var first = panel && panel.querySelector("select, textarea, input");
      choose("edit", first ? first.id : "note");
    } else return;
    ev.preventDefault();
  });
})();
