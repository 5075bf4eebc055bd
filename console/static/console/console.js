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
    // Pickers of one form that share a deck (the calculator's: each hand's cards, the board)
    // also disable the cards picked or typed in the others.
    var group = picker.closest("[data-picker-group]");
    function cardsOf(input) {
      return input.value.trim() ? input.value.trim().split(/[\s,]+/) : [];
    }
    function picked() {
      return cardsOf(field);
    }
    function elsewhere() {
      var taken = [];
      if (!group) return taken;
      group.querySelectorAll(".picker[data-field]").forEach(function (other) {
        var input = document.getElementById(other.dataset.field);
        if (other !== picker && input) taken = taken.concat(cardsOf(input));
      });
      return taken;
    }
    function refresh() {
      var cards = picked();
      var taken = elsewhere();
      picker.querySelectorAll("button[data-card]").forEach(function (button) {
        var used = button.dataset.used === "1" || cards.indexOf(button.dataset.card) >= 0 ||
          taken.indexOf(button.dataset.card) >= 0;
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
    function refreshAll() {
      if (!group) return refresh();
      (group.pickerRefreshers || [refresh]).forEach(function (again) { again(); });
    }
    if (group) (group.pickerRefreshers = group.pickerRefreshers || []).push(refresh);
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
          // A picker folded in a disclosure (the calculator's) folds away once it has them all.
          var fold = picker.closest("details.calc-pick");
          if (fold && cards.length === limit) fold.open = false;
        }
        refreshAll();
      }
      if (event.target.closest("button[data-undo]")) {
        event.preventDefault();
        var rest = picked();
        rest.pop();
        field.value = rest.join(" ");
        refreshAll();
      }
    });
    field.addEventListener("input", refreshAll);
    refreshAll();
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
    // Any field that copies another (a seat's Blind its Ante, on the calculator's form) until
    // typed in itself.
    root.querySelectorAll("input[data-copies]").forEach(function (copy) {
      if (copy.dataset.ready) return;
      copy.dataset.ready = "1";
      var source = copy.form && copy.form.elements[copy.dataset.copies];
      if (!source) return;
      if (copy.value) copy.dataset.touched = "1";
      source.addEventListener("input", function () {
        if (!copy.dataset.touched) copy.value = source.value;
      });
      copy.addEventListener("input", function () { copy.dataset.touched = "1"; });
    });
    // The calculator's form: the player-dealer's seat takes no wagers; it is marked as such.
    root.querySelectorAll("select[name=pd_seat]").forEach(function (select) {
      var form = select.form;
      function mark() {
        form.querySelectorAll(".calc-seat[data-seat]").forEach(function (seat) {
          seat.classList.toggle("is-dealer", seat.dataset.seat === select.value);
        });
      }
      select.addEventListener("change", mark);
      mark();
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
  // The table board's wall clock: the cardroom's time (its TIME_ZONE), whatever zone the TV's
  // browser is set to. Each page and each polled panel carries the server's clock as it was
  // served, with the cardroom's UTC offset ("2026-11-20T10:00:00-08:00"); the clock runs on
  // from the newest of them and is read in that offset (a daylight-saving change arrives
  // with the next poll).
  function offsetMinutes(stamp) {
    var zone = /([+-])(\d\d):(\d\d)$/.exec(stamp);
    if (!zone) return 0; // "Z": UTC
    var minutes = parseInt(zone[2], 10) * 60 + parseInt(zone[3], 10);
    return zone[1] === "-" ? -minutes : minutes;
  }
  function clock() {
    var stamps = document.querySelectorAll(".stakes-grid[data-server-now], [data-clock][data-server-now]");
    if (!stamps.length) return;
    var seen = Date.now();
    var newest = stamps[0];
    stamps.forEach(function (el) {
      if (!el.dataset.seenAt) el.dataset.seenAt = String(seen);
      if (parseInt(el.dataset.seenAt, 10) > parseInt(newest.dataset.seenAt, 10)) newest = el;
    });
    var stamp = newest.dataset.serverNow;
    var at = Date.parse(stamp);
    if (isNaN(at)) return;
    var local = new Date(at + (seen - parseInt(newest.dataset.seenAt, 10)) +
      offsetMinutes(stamp) * 60000);
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      el.textContent = String(local.getUTCHours()).padStart(2, "0") + ":" +
        String(local.getUTCMinutes()).padStart(2, "0");
    });
  }
  setInterval(function () { tick(); clock(); }, 1000);

  document.addEventListener("DOMContentLoaded", function () { setup(document); tick(); });
})();
