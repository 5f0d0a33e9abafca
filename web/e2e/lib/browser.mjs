// Debian's Chromium driven by playwright-core (no browser download): one browser, one fresh
// context per person, and every console message watched for CSP violations and page errors.
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.PRODE_URL || 'http://localhost:8080/').replace(/\/?$/, '/');

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
    // Playwright turns the popup blocker off by default. Keep it on, as in a real browser: the
    // landing's automatic sign-in popup must be blocked quietly, the button's must open.
    ignoreDefaultArgs: ['--disable-popup-blocking'],
    // A profile of its own in a fresh temporary directory, removed on close.
  });
}

const CSP_VIOLATION = /Content Security Policy|Refused to/i;

/**
 * A fresh browser context (no cookies, no storage) for one person. `problems` collects CSP
 * violations and uncaught errors from every page of the context, the sign-in popup included.
 * `timezoneId` puts the person's device in another zone than the machine's.
 */
export async function newPerson(browser, name, { timezoneId } = {}) {
  const context = await browser.newContext({
    baseURL: BASE_URL,
    locale: 'es-AR',
    viewport: { width: 1280, height: 800 },
    ...(timezoneId && { timezoneId }),
  });
  const problems = [];
  const watch = (page) => {
    page.on('console', (msg) => {
      if (CSP_VIOLATION.test(msg.text())) problems.push(`[${name}] CSP: ${msg.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`[${name}] page error on ${page.url()}: ${error.message}`));
  };
  context.on('page', watch);
  const page = await context.newPage();
  return { name, context, page, problems };
}

/**
 * The people of one suite, each in a fresh context of one browser that opens before the suite's
 * tests and closes after them. `names` maps a key to a person's name; the person under each key
 * is filled in (name, context, page, problems) by the time the steps run. `addPerson(name, options)`
 * opens one more context later on (options as newPerson's).
 */
export function peopleForSuite(names) {
  let browser;
  const people = Object.fromEntries(Object.keys(names).map((key) => [key, {}]));
  before(async () => {
    browser = await launchBrowser();
    for (const [key, name] of Object.entries(names)) Object.assign(people[key], await newPerson(browser, name));
  });
  after(async () => {
    await browser?.close();
  });
  return { ...people, addPerson: (name, options) => newPerson(browser, name, options) };
}

/** Accepts every dialog (window.alert) the page opens, noting its message in `messages`. */
export function acceptDialogs(page, messages) {
  page.on('dialog', async (dialog) => {
    messages.push(dialog.message());
    await dialog.accept();
  });
}
