/**
 * The design tokens of the web UI, in one place. Colours exist for a light and a dark scheme; the
 * contrast requirements below are what the unit test checks, so a colour may only change together
 * with a passing ratio (WCAG 2.2 AA: 4.5:1 for text, 3:1 for focus rings and control boundaries).
 */

export type ColorScheme = 'light' | 'dark';

export interface ColorPalette {
  /** Page background. */
  readonly bg: string;
  /** Cards, header and navigation. */
  readonly surface: string;
  readonly text: string;
  readonly textMuted: string;
  /** Decorative separators only; never the sole boundary of a control. */
  readonly border: string;
  /** Boundary of inputs and buttons (non-text contrast). */
  readonly controlBorder: string;
  /** Links, active navigation text, primary buttons. */
  readonly accent: string;
  readonly accentSoft: string;
  readonly onAccent: string;
  readonly focusRing: string;
  readonly noticeSoft: string;
  readonly danger: string;
  readonly dangerSoft: string;
  readonly statusReady: string;
  readonly statusDegraded: string;
  readonly statusOffline: string;
  readonly statusUnknown: string;
}

export type ColorToken = keyof ColorPalette;

export const colorPalettes = {
  light: {
    bg: '#f6f6f3',
    surface: '#ffffff',
    text: '#1b1c20',
    textMuted: '#4f535c',
    border: '#dcdee3',
    controlBorder: '#7b808a',
    accent: '#2c46a6',
    accentSoft: '#e7ecfa',
    onAccent: '#ffffff',
    focusRing: '#1f5fd6',
    noticeSoft: '#edf1fb',
    danger: '#a3261d',
    dangerSoft: '#fcebe9',
    statusReady: '#16703d',
    statusDegraded: '#8a5300',
    statusOffline: '#b3261e',
    statusUnknown: '#4f535c',
  },
  dark: {
    bg: '#141519',
    surface: '#1c1e23',
    text: '#ecedf1',
    textMuted: '#a7acb7',
    border: '#33363e',
    controlBorder: '#80858f',
    accent: '#a9bcff',
    accentSoft: '#26304d',
    onAccent: '#141519',
    focusRing: '#8aa6ff',
    noticeSoft: '#222a3d',
    danger: '#ffb4ab',
    dangerSoft: '#3a1f1d',
    statusReady: '#6fd39a',
    statusDegraded: '#f0b85a',
    statusOffline: '#ff8f84',
    statusUnknown: '#a7acb7',
  },
} as const satisfies Record<ColorScheme, ColorPalette>;

export interface ContrastRequirement {
  readonly foreground: ColorToken;
  readonly background: ColorToken;
  readonly minimum: number;
  /** Where the pair appears, for the failure message. */
  readonly usage: string;
}

const TEXT = 4.5;
const NON_TEXT = 3;

/** Every foreground/background pairing the components use. Applies to both schemes. */
export const contrastRequirements: readonly ContrastRequirement[] = [
  { foreground: 'text', background: 'bg', minimum: TEXT, usage: 'body text' },
  { foreground: 'text', background: 'surface', minimum: TEXT, usage: 'text on cards, header, navigation' },
  { foreground: 'text', background: 'noticeSoft', minimum: TEXT, usage: 'notice text' },
  { foreground: 'text', background: 'dangerSoft', minimum: TEXT, usage: 'error detail text' },
  { foreground: 'textMuted', background: 'bg', minimum: TEXT, usage: 'secondary text on the page' },
  { foreground: 'textMuted', background: 'surface', minimum: TEXT, usage: 'secondary text on cards' },
  { foreground: 'textMuted', background: 'noticeSoft', minimum: TEXT, usage: 'secondary text in notices' },
  { foreground: 'accent', background: 'bg', minimum: TEXT, usage: 'links on the page' },
  { foreground: 'accent', background: 'surface', minimum: TEXT, usage: 'links and navigation' },
  { foreground: 'accent', background: 'accentSoft', minimum: TEXT, usage: 'active navigation item' },
  { foreground: 'onAccent', background: 'accent', minimum: TEXT, usage: 'primary button label' },
  { foreground: 'danger', background: 'dangerSoft', minimum: TEXT, usage: 'error title' },
  { foreground: 'danger', background: 'surface', minimum: TEXT, usage: 'inline error text' },
  { foreground: 'statusReady', background: 'surface', minimum: TEXT, usage: 'health: Ready' },
  { foreground: 'statusDegraded', background: 'surface', minimum: TEXT, usage: 'health: Degraded' },
  { foreground: 'statusOffline', background: 'surface', minimum: TEXT, usage: 'health: Offline' },
  { foreground: 'statusUnknown', background: 'surface', minimum: TEXT, usage: 'health: Checking' },
  { foreground: 'focusRing', background: 'bg', minimum: NON_TEXT, usage: 'focus ring on the page' },
  { foreground: 'focusRing', background: 'surface', minimum: NON_TEXT, usage: 'focus ring on cards and navigation' },
  { foreground: 'focusRing', background: 'accentSoft', minimum: NON_TEXT, usage: 'focus ring on the active navigation item' },
  { foreground: 'focusRing', background: 'dangerSoft', minimum: NON_TEXT, usage: 'focus ring on actions inside an error notice' },
  { foreground: 'controlBorder', background: 'surface', minimum: NON_TEXT, usage: 'input and button boundary' },
];

/** `textMuted` → `--opl-color-text-muted`. */
export function colorVariable(token: ColorToken): string {
  return `--opl-color-${token.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** CSS declarations that set every colour variable of one scheme. */
export function colorDeclarations(scheme: ColorScheme): string {
  const palette: ColorPalette = colorPalettes[scheme];
  return (Object.keys(palette) as ColorToken[]).map((token) => `${colorVariable(token)}: ${palette[token]};`).join('\n');
}

export const fontStack =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif';
export const monoStack = 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace';
