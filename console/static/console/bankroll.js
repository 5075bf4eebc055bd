/* The bankroll page's chart (docs/console.md, "Bankroll page"), drawn with uPlot
 * (vendored from the npm registry, docs/dependencies.md) from the series the page ships in
 * <script type="application/json" id="bankroll-series"> (console.selectors.bankroll_chart).
 * Money arrives in integer cents and is shown in dollars; times are drawn in the cardroom's
 * time zone, whatever the browser's. Two views: the result added up hand by hand on a time
 * axis, beside the theo of the same hands and the band of two standard deviations around
 * it (docs/rules.md §13.5), and each gaming day's result as a bar. No inline script or
 * style anywhere (Content-Security-Policy). */
(function () {
  "use strict";

  const FELT = "#0d4d2e";
  const GAIN = "#2e7d32";
  const LOSS = "#a01818";
  const INK = "#1c1c1c";
  const THEO = "#1f5fa8";
  const BAND = "rgba(31, 95, 168, 0.14)";
  const BAND_EDGE = "rgba(31, 95, 168, 0.45)";

  function dollars(cents, signed) {
    if (cents == null) return "–";
    const whole = Math.abs(Math.round(cents));
    const text = "$" + Math.floor(whole / 100).toLocaleString("en-US") + "." +
      String(whole % 100).padStart(2, "0");
    if (cents < 0) return "-" + text;
    return signed && cents > 0 ? "+" + text : text;
  }

  // Axis labels: whole dollars when the tick is a whole dollar amount.
  function axisDollars(u, splits) {
    return splits.map((cents) => {
      if (cents % 100 !== 0) return dollars(cents);
      const text = "$" + Math.abs(cents / 100).toLocaleString("en-US");
      return cents < 0 ? "-" + text : text;
    });
  }

  // The money scale always shows zero, with a little room above and below the data.
  function moneyRange(u, low, high) {
    low = Math.min(0, low == null ? 0 : low);
    high = Math.max(0, high == null ? 0 : high);
    const pad = Math.max((high - low) * 0.08, 100);
    return [low - pad, high + pad];
  }

  // A dashed line at $0: the break-even the result is read against.
  function zeroLine(u) {
    const y = Math.round(u.valToPos(0, "$", true));
    const ctx = u.ctx;
    const ratio = window.devicePixelRatio || 1;
    ctx.save();
    ctx.strokeStyle = INK;
    ctx.lineWidth = ratio;
    ctx.setLineDash([6 * ratio, 4 * ratio]);
    ctx.beginPath();
    ctx.moveTo(u.bbox.left, y);
    ctx.lineTo(u.bbox.left + u.bbox.width, y);
    ctx.stroke();
    ctx.restore();
  }

  const AXIS_FONT = "14px system-ui, sans-serif";
  const moneyAxis = {
    scale: "$",
    values: axisDollars,
    size: 90,
    font: AXIS_FONT,
    grid: { stroke: "#e4e4e4" },
  };
  // A vertical line follows the pointer; no horizontal one, which would read as a level.
  const cursor = { y: false };

  function handsChart(data, width) {
    const hands = data.hands;
    const theo = data.theo;
    const zone = data.timezone;
    const local = (seconds) => uPlot.tzDate(new Date(seconds * 1000), zone);
    const when = uPlot.fmtDate("{WWW} {MMM} {D}, {h}:{mm}{aa}");
    return {
      options: {
        width: width,
        height: 320,
        tzDate: local,
        scales: { x: { time: true }, $: { range: moneyRange }, hand: { range: moneyRange } },
        series: [
          {
            label: "Hand",
            value: (u, seconds, s, i) =>
              i == null ? "–" : when(local(seconds)) + " · " + hands.hand[i],
          },
          {
            label: "Actual result so far",
            scale: "$",
            stroke: FELT,
            width: 2,
            // The result holds from one hand to the next: a step, not a slope across the night.
            paths: uPlot.paths.stepped({ align: 1 }),
            value: (u, cents) => dollars(cents),
            points: { size: 6, fill: FELT },
          },
          {
            // Not drawn: the hand's own result, read in the legend beside the total.
            label: "This hand",
            scale: "hand",
            stroke: "#777",
            paths: () => null,
            points: { show: false, size: 0, width: 0 }, // no dot under the pointer either
            value: (u, cents, s, i) =>
              i == null || theo.hand[i] == null
                ? dollars(cents, true)
                : dollars(cents, true) + " (theo " + dollars(theo.hand[i], true) + ")",
          },
          {
            // What the house edges give on the same wagers, added up: the result expected.
            label: "Theo so far",
            scale: "$",
            stroke: THEO,
            width: 2, // solid: the dashed line is $0
            paths: uPlot.paths.stepped({ align: 1 }),
            points: { show: false },
            value: (u, cents) => dollars(cents),
          },
          {
            // The band's upper edge; its legend row reads the whole range.
            label: "Usual range (theo ± 2 standard deviations)",
            scale: "$",
            stroke: BAND_EDGE,
            width: 1,
            paths: uPlot.paths.stepped({ align: 1 }),
            points: { show: false, size: 0, width: 0 }, // the edge has no dot under the pointer
            value: (u, cents, s, i) =>
              i == null ? "–" : dollars(theo.low[i]) + " to " + dollars(theo.high[i]),
          },
          {
            label: "Usual range, low",
            class: "legend-hidden", // read in the row above
            scale: "$",
            stroke: BAND_EDGE,
            width: 1,
            paths: uPlot.paths.stepped({ align: 1 }),
            points: { show: false, size: 0, width: 0 }, // the edge has no dot under the pointer
            value: (u, cents) => dollars(cents),
          },
        ],
        bands: [{ series: [4, 5], fill: BAND }],
        axes: [{ font: AXIS_FONT, size: 56, space: 80, grid: { stroke: "#e4e4e4" } }, moneyAxis],
        cursor: cursor,
        hooks: { drawAxes: [zeroLine] },
      },
      data: [hands.time, hands.result, hands.net, theo.expected, theo.high, theo.low],
    };
  }

  function daysChart(data, width) {
    const days = data.days;
    const label = (i, withYear) => {
      const [y, m, d] = days.day[i].split("-").map(Number);
      const date = new Date(Date.UTC(y, m - 1, d));
      const options = { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" };
      if (withYear) options.year = "numeric";
      return date.toLocaleDateString("en-US", options);
    };
    const count = days.day.length;
    const colours = days.result.map((cents) => (cents < 0 ? LOSS : GAIN));
    return {
      options: {
        width: width,
        height: 320,
        scales: {
          x: { time: false, range: () => [-0.5, count - 0.5] },
          $: { range: moneyRange },
        },
        series: [
          {
            label: "Gaming day",
            value: (u, i) =>
              i == null || days.day[i] == null
                ? "–"
                : label(i, true) + " · " + days.hands[i] + (days.hands[i] === 1 ? " hand" : " hands"),
          },
          {
            label: "Day's result",
            scale: "$",
            stroke: FELT,
            fill: FELT,
            width: 0,
            paths: uPlot.paths.bars({
              size: [0.6, 64],
              disp: { fill: { unit: 3, values: () => colours } },
            }),
            points: { show: false },
            value: (u, cents) => dollars(cents, true),
          },
        ],
        axes: [
          {
            incrs: [1, 2, 5, 7, 14, 28],
            values: (u, splits) =>
              splits.map((i) => (Number.isInteger(i) && i >= 0 && i < count ? label(i) : "")),
            space: 110,
            font: AXIS_FONT,
            grid: { show: false },
          },
          moneyAxis,
        ],
        cursor: cursor,
        hooks: { drawAxes: [zeroLine] },
      },
      data: [days.day.map((_, i) => i), days.result],
    };
  }

  function start() {
    const source = document.getElementById("bankroll-series");
    const box = document.getElementById("bankroll-chart");
    if (!source || !box || typeof uPlot === "undefined") return;
    const data = JSON.parse(source.textContent);
    const caption = document.getElementById("bankroll-caption");
    const switcher = document.querySelector("#bankroll .chart-views");
    const views = { hands: handsChart, days: daysChart };
    let chart = null;

    function draw(view) {
      if (chart) chart.destroy();
      const built = views[view](data, box.clientWidth);
      chart = new uPlot(built.options, built.data, box);
      box.dataset.view = view;
      if (caption && caption.dataset[view]) caption.textContent = caption.dataset[view];
      if (switcher) {
        switcher.querySelectorAll("button[data-view]").forEach((button) => {
          button.setAttribute("aria-pressed", String(button.dataset.view === view));
        });
      }
    }

    if (switcher) {
      switcher.hidden = false; // the switch only works with this script
      switcher.addEventListener("click", (event) => {
        const button = event.target.closest("button[data-view]");
        if (button && button.dataset.view !== box.dataset.view) draw(button.dataset.view);
      });
    }
    draw("hands");
    let width = box.clientWidth;
    new ResizeObserver(() => {
      if (chart && box.clientWidth !== width) {
        width = box.clientWidth;
        chart.setSize({ width: width, height: 320 });
      }
    }).observe(box);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
