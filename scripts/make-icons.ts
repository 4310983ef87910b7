/**
 * Renders the toolbar icon (an SVG drawn here) to public/icon/{16,32,48,128}.png with Debian's Chromium.
 * Run once after changing the design: `node --import tsx scripts/make-icons.ts`.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128">
  <rect x="4" y="4" width="120" height="120" rx="28" fill="#3b5bdb"/>
  <circle cx="34" cy="88" r="14" fill="#fff"/>
  <circle cx="94" cy="40" r="14" fill="#fff"/>
  <path d="M44 80 C 62 62, 64 64, 84 48" stroke="#fff" stroke-width="10" fill="none" stroke-linecap="round"/>
  <path d="M72 44 L 86 46 L 84 60" stroke="#fff" stroke-width="8" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
</svg>`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
mkdirSync('public/icon', { recursive: true });
for (const size of [16, 32, 48, 128]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}</style>${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}`,
  );
  await page.screenshot({ path: `public/icon/${size}.png`, omitBackground: true });
  await page.close();
}
await browser.close();
