import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contrastRatio, parseHexColor, relativeLuminance } from '../../../ui/src/theme/contrast.ts';
import { colorPalettes, colorVariable, contrastRequirements, type ColorScheme } from '../../../ui/src/theme/tokens.ts';

describe('contrast arithmetic', () => {
  it('parses short and long hex colours', () => {
    expect(parseHexColor('#fff')).toEqual({ r: 255, g: 255, b: 255 });
    expect(parseHexColor('#2C46a6')).toEqual({ r: 0x2c, g: 0x46, b: 0xa6 });
    expect(() => parseHexColor('rgb(0,0,0)')).toThrow(/not a #rgb/);
    expect(() => parseHexColor('#12345')).toThrow();
  });

  it('matches the WCAG reference values', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 10);
    expect(contrastRatio('#fff', '#fff')).toBe(1);
    // Well-known published ratios.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
  });

  it('does not depend on argument order', () => {
    expect(contrastRatio('#2c46a6', '#e7ecfa')).toBe(contrastRatio('#e7ecfa', '#2c46a6'));
  });
});

describe('colour tokens', () => {
  const schemes = Object.keys(colorPalettes) as ColorScheme[];
  const cases = schemes.flatMap((scheme) => contrastRequirements.map((requirement) => ({ scheme, ...requirement })));

  it.each(cases)('$scheme: $foreground on $background ($usage) reaches $minimum:1', ({ scheme, foreground, background, minimum }) => {
    const palette = colorPalettes[scheme];
    expect(contrastRatio(palette[foreground], palette[background])).toBeGreaterThanOrEqual(minimum);
  });

  it('defines the same tokens in every scheme', () => {
    expect(Object.keys(colorPalettes.dark).sort()).toEqual(Object.keys(colorPalettes.light).sort());
  });

  it('names CSS variables in kebab case', () => {
    expect(colorVariable('textMuted')).toBe('--opl-color-text-muted');
    expect(colorVariable('bg')).toBe('--opl-color-bg');
  });

  it('paints the document background with the page colour before the app starts', () => {
    const indexHtml = readFileSync(new URL('../../../ui/index.html', import.meta.url), 'utf8');
    expect(indexHtml).toContain(`background: ${colorPalettes.light.bg}`);
    expect(indexHtml).toContain(`background: ${colorPalettes.dark.bg}`);
  });
});
