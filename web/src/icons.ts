// SPDX-License-Identifier: AGPL-3.0-or-later
// A few line icons drawn as inline SVG through the DOM (no markup parsing, CSP-safe). Decorative:
// every icon sits next to a text label.

const PATHS: Record<string, string[]> = {
  engine: ['M5 4h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z', 'M8 20h8', 'M12 16v4'],
  invite: ['M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1', 'M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1'],
  local: ['M9 4.5a3.5 3.5 0 1 1 0 7a3.5 3.5 0 1 1 0-7z', 'M2.5 20c0-3.6 2.9-6 6.5-6s6.5 2.4 6.5 6', 'M17 6.5a2.5 2.5 0 1 1 0 5a2.5 2.5 0 1 1 0-5z', 'M17 14c2.8 0 4.5 2 4.5 5'],
  soundOn: ['M4 9h4l5-4v14l-5-4H4z', 'M16.5 8.5a5 5 0 0 1 0 7', 'M19 6a8.5 8.5 0 0 1 0 12'],
  soundOff: ['M4 9h4l5-4v14l-5-4H4z', 'M17 9.5l5 5', 'M22 9.5l-5 5'],
  a11y: ['M12 2a10 10 0 1 1 0 20a10 10 0 1 1 0-20z', 'M12 6a1.5 1.5 0 1 1 0 3a1.5 1.5 0 1 1 0-3z', 'M7 10.5l5 1 5-1', 'M12 11.5V15l-2.5 4', 'M12 15l2.5 4'],
  flip: ['M7 4v16', 'M4 17l3 3 3-3', 'M17 20V4', 'M14 7l3-3 3 3'],
  download: ['M12 4v11', 'M7 10l5 5 5-5', 'M5 20h14'],
  flag: ['M5 21V4', 'M5 4h12l-2.5 4 2.5 4H5'],
  copy: ['M9 9h10v11H9z', 'M5 15V4h10'],
};

export function icon(name: keyof typeof PATHS | string): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  for (const d of PATHS[name] ?? []) {
    const p = document.createElementNS(ns, 'path');
    p.setAttribute('d', d);
    svg.appendChild(p);
  }
  return svg;
}
