// Renders the default site images of docs/SPEC.md §9 (logo 64x64, favicon, avatar 512x512, background 1920x1080)
// into public/ with the system Chromium. Run once: `node packages/web/scripts/gen-images.mjs`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const out = (name) => fileURLToPath(new URL(`../public/${name}`, import.meta.url));

const mark = (size) => `
<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#4080FF"/><stop offset="1" stop-color="#165DFF"/></linearGradient></defs>
  <rect x="2" y="2" width="60" height="60" rx="14" fill="url(#g)"/>
  <path d="M36 10 L18 36 H30 L26 54 L46 26 H34 Z" fill="#fff"/>
</svg>`;

const avatar = `
<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
  <defs><linearGradient id="a" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#E8F3FF"/><stop offset="1" stop-color="#BEDAFF"/></linearGradient></defs>
  <rect width="512" height="512" fill="url(#a)"/>
  <circle cx="256" cy="200" r="92" fill="#165DFF"/>
  <path d="M72 512 C72 380 160 318 256 318 C352 318 440 380 440 512 Z" fill="#165DFF"/>
</svg>`;

const background = `
<html><body style="margin:0;width:1920px;height:1080px;overflow:hidden;
  background: radial-gradient(circle at 15% 20%, #6AA1FF 0, transparent 45%),
              radial-gradient(circle at 85% 80%, #0E42D2 0, transparent 50%),
              linear-gradient(135deg, #165DFF 0%, #3C7EFF 50%, #0E42D2 100%);">
  <svg width="1920" height="1080" style="position:absolute;inset:0;opacity:.18">
    ${Array.from({ length: 9 }, (_, i) => `<circle cx="${300 + i * 180}" cy="${540 + Math.sin(i) * 260}" r="${60 + i * 22}" fill="none" stroke="#fff" stroke-width="2"/>`).join('')}
    ${Array.from({ length: 14 }, (_, i) => `<line x1="0" y1="${i * 90}" x2="1920" y2="${i * 90 - 400}" stroke="#fff" stroke-width="1" opacity=".35"/>`).join('')}
  </svg>
</body></html>`;

function ico(png) {
  // An ICO container holding one PNG image (supported by every current browser).
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0); header.writeUInt16LE(1, 2); header.writeUInt16LE(1, 4);
  header.writeUInt8(32, 6); header.writeUInt8(32, 7); header.writeUInt8(0, 8); header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10); header.writeUInt16LE(32, 12);
  header.writeUInt32LE(png.length, 14); header.writeUInt32LE(22, 18);
  return Buffer.concat([header, png]);
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = await browser.newPage();
async function shot(html, width, height, options = {}) {
  await page.setViewportSize({ width, height });
  html = html.trim();
  await page.setContent(html.startsWith('<html') ? html : `<html><body style="margin:0;background:transparent">${html}</body></html>`);
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width, height }, ...options });
}
writeFileSync(out('logo.png'), await shot(mark(64), 64, 64));
writeFileSync(out('favicon.ico'), ico(await shot(mark(32), 32, 32)));
writeFileSync(out('avatar.png'), await shot(avatar, 512, 512));
writeFileSync(out('bgimg.jpg'), await shot(background, 1920, 1080, { type: 'jpeg', quality: 85, omitBackground: false }));
await browser.close();
