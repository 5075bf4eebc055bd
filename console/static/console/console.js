// Console behaviour: keyboard shortcuts, the card picker, confirmations. No rules here:
// the server refuses what the rules refuse; this only saves the dealer taps.
(function () {
  "use strict";

  // Keyboard shortcuts: any element with data-key="x" is clicked when x is pressed
  // outside a text field.
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) {
      return;
    }
    var button = document.querySelector('[data-key="' + CSS.escape(event.key) + '"]:not(:disabled)');
    if (button) {
      event.preventDefault();
      button.click();
    }
  });

  // The card picker: each button adds its card to the form's card field once; a card on
  // the layout or already picked is disabled, so it cannot be picked twice.
  function setupPicker(picker) {
    if (picker.dataset.ready) return; // set up once, whether by the page load or by a swap
    picker.dataset.ready = "1";
    var field = document.getElementById(picker.dataset.field);
    var slots = document.getElementById(picker.dataset.slots);
    var limit = parseInt(picker.dataset.count, 10);
    function picked() {
      return field.value.trim() ? field.value.trim().split(/[\s,]+/) : [];
    }
    function refresh() {
      var cards = picked();
      picker.querySelectorAll("button[data-card]").forEach(function (button) {
        var used = button.dataset.used === "1" || cards.indexOf(button.dataset.card) >= 0;
        button.disabled = used || cards.length >= limit;
        button.setAttribute("aria-pressed", cards.indexOf(button.dataset.card) >= 0);
      });
      if (slots) {
        // Say whose cards each pick is: "player-dealer 2c 3d · seat 1 4h 5s ...".
        var owners = (picker.dataset.owners || "").split(",");
        var groups = [];
        cards.forEach(function (c, i) {
          var owner = owners[i] || "";
          var last = groups[groups.length - 1];
          if (last && last.owner === owner) last.cards.push(c);
          else groups.push({ owner: owner, cards: [c] });
        });
        slots.textContent = cards.length + " of " + limit + ": " + groups.map(function (g) {
          return (g.owner ? g.owner + " " : "") + g.cards.join(" ");
        }).join(" · ");
      }
    }
    // The wrapper holds the cards and the "Undo last card" button beside them (the undo
    // button sits outside the grid, so listening on the grid alone never saw its clicks).
    var wrapper = picker.closest(".picker-wrap") || picker.parentNode;
    wrapper.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-card]");
      if (button) {
        event.preventDefault();
        var cards = picked();
        if (cards.indexOf(button.dataset.card) < 0 && cards.length < limit) {
          cards.push(button.dataset.card);
          field.value = cards.join(" ");
        }
        refresh();
      }
      if (event.target.closest("button[data-undo]")) {
        event.preventDefault();
        var rest = picked();
        rest.pop();
        field.value = rest.join(" ");
        refresh();
      }
    });
    field.addEventListener("input", refresh);
    refresh();
  }

  function setup(root) {
    root.querySelectorAll(".picker[data-field]").forEach(setupPicker);
    // Blind mirrors Ante until the dealer types a Blind of their own (they must be equal).
    root.querySelectorAll("form[data-bet]").forEach(function (form) {
      if (form.dataset.ready) return;
      form.dataset.ready = "1";
      var ante = form.querySelector("[name=ante]");
      var blind = form.querySelector("[name=blind]");
      if (!ante || !blind) return;
      ante.addEventListener("input", function () {
        if (!blind.dataset.touched) blind.value = ante.value;
      });
      blind.addEventListener("input", function () { blind.dataset.touched = "1"; });
    });
  }

  // Destructive forms ask again in words before they post. Listened to while capturing, so
  // a "no" stops the submit before htmx (listening on the form itself) posts it.
  document.addEventListener("submit", function (event) {
    var question = event.target.dataset.confirm;
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  // The dealer's table view is swapped in place (htmx): a refusal (400 a broken rule, 409 the
  // wrong state) comes back as the page with the rule named on it, so it is swapped in too;
  // any other failure is said on the page rather than silently dropped.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var target = detail.target;
    if (!target || target.id !== "table-area") return;
    var status = detail.xhr.status;
    if (status === 400 || status === 409) {
      detail.shouldSwap = true;
      detail.isError = false;
    } else if (status >= 400) {
      var note = document.createElement("p");
      note.className = "alert";
      note.setAttribute("role", "alert");
      note.textContent = "Not done: the server answered " + status + " " + detail.xhr.statusText +
        ". Reload the page to see the table as it is.";
      target.insertBefore(note, target.firstChild);
    }
  });
  // htmx "settles" a swapped element by copying its predecessor's class and style attributes
  // onto it for a moment; an input the browser gave an empty style="" would then be an inline
  // style the Content-Security-Policy refuses. Only classes are settled.
  if (window.htmx) window.htmx.config.attributesToSettle = ["class"];
  // New content from a swap gets the same behaviour as the page had on load.
  document.addEventListener("htmx:load", function (event) { setup(event.detail.elt); });

  // Countdowns to a called player's answer-by time, counted from the server's own clock
  // (data-server-now) when the element arrived, so a browser clock that is off does not
  // matter. The lists refresh every few seconds; new elements are picked up on each tick.
  function tick() {
    var seen = Date.now();
    document.querySelectorAll("[data-answer-by][data-server-now]").forEach(function (el) {
      if (!el.dataset.seenAt) el.dataset.seenAt = String(seen);
      var elapsed = seen - parseInt(el.dataset.seenAt, 10);
      var left = Date.parse(el.dataset.answerBy) - Date.parse(el.dataset.serverNow) - elapsed;
      var seconds = Math.max(0, Math.ceil(left / 1000));
      var text = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
      el.textContent = seconds > 0 ? text + " left to answer" : "time is up";
      el.classList.toggle("late", seconds === 0);
    });
  }
  // The table board's wall clock (the room's local time, as the TV's browser keeps it).
  function clock() {
    var now = new Date();
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      el.textContent = String(now.getHours()).padStart(2, "0") + ":" +
        String(now.getMinutes()).padStart(2, "0");
    });
  }
  setInterval(function () { tick(); clock(); }, 1000);

  document.addEventListener("DOMContentLoaded", function () { setup(document); tick(); });
})();
