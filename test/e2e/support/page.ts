import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export interface FocusedElement {
  readonly tag: string;
  readonly text: string;
  readonly role: string | null;
  readonly ariaCurrent: string | null;
  readonly outlineStyle: string;
  readonly outlineWidthPx: number;
  readonly inViewport: boolean;
}

export interface BrowserSession {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors, failed requests and uncaught exceptions seen so far. */
  readonly errors: string[];
  /** Console warnings seen so far (Lit's "dev mode" notice among them, were the UI built for development). */
  readonly warnings: string[];
  close(): Promise<void>;
}

/** Connects to the shared browser and opens one page that records everything that went wrong. */
export async function openSession(wsEndpoint: string, options: { colorScheme?: 'light' | 'dark' } = {}): Promise<BrowserSession> {
  const browser = await chromium.connect(wsEndpoint);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: options.colorScheme ?? 'light' });
  const page = await context.newPage();
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`);
    if (message.type() === 'warning') warnings.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    // A page leaving closes its live event stream (EventSource): that abort is the page's own doing.
    if (reason === 'net::ERR_ABORTED' && request.headers()['accept'] === 'text/event-stream') return;
    errors.push(`request failed: ${request.method()} ${request.url()} ${reason}`);
  });
  return {
    browser,
    context,
    page,
    errors,
    warnings,
    async close() {
      await context.close();
      await browser.close();
    },
  };
}

/** The element that has focus, looking through shadow roots. */
export async function focused(page: Page): Promise<FocusedElement> {
  return page.evaluate(() => {
    let element: Element | null = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    if (!element) return { tag: '', text: '', role: null, ariaCurrent: null, outlineStyle: 'none', outlineWidthPx: 0, inViewport: false };
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    return {
      tag: element.tagName.toLowerCase(),
      text: (element.textContent ?? '').replace(/\s+/g, ' ').trim(),
      role: element.getAttribute('role'),
      ariaCurrent: element.getAttribute('aria-current'),
      outlineStyle: style.outlineStyle,
      outlineWidthPx: Number.parseFloat(style.outlineWidth) || 0,
      inViewport: box.width > 0 && box.height > 0 && box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth,
    };
  });
}

/**
 * Presses Tab (or Shift+Tab) until the focused element's text is `text`; fails after `max` presses.
 * Returns the focused element so callers can check how focus looks.
 */
export async function tabTo(page: Page, text: string, options: { backwards?: boolean; max?: number } = {}): Promise<FocusedElement> {
  const key = options.backwards ? 'Shift+Tab' : 'Tab';
  const seen: string[] = [];
  for (let press = 0; press < (options.max ?? 25); press += 1) {
    await page.keyboard.press(key);
    const element = await focused(page);
    if (element.text === text) return element;
    seen.push(`${element.tag}:${element.text.slice(0, 30)}`);
  }
  throw new Error(`pressing ${key} never focused "${text}"; focus went through: ${seen.join(' → ')}`);
}
