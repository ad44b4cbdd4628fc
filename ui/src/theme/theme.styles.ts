import { css, unsafeCSS } from 'lit';
import { colorDeclarations, fontStack, monoStack } from './tokens.ts';

/**
 * Sets the design tokens as custom properties on the root element. Custom properties inherit
 * through shadow roots, so every nested component reads the same `--opl-*` variables.
 */
export const themeStyles = css`
  :host {
    color-scheme: light dark;
    ${unsafeCSS(colorDeclarations('light'))}
    --opl-font: ${unsafeCSS(fontStack)};
    --opl-font-mono: ${unsafeCSS(monoStack)};
    --opl-radius: 6px;
    --opl-space-1: 0.25rem;
    --opl-space-2: 0.5rem;
    --opl-space-3: 0.75rem;
    --opl-space-4: 1rem;
    --opl-space-6: 1.5rem;
    --opl-space-8: 2rem;
    --opl-focus-width: 3px;
  }

  @media (prefers-color-scheme: dark) {
    :host {
      ${unsafeCSS(colorDeclarations('dark'))}
    }
  }
`;
