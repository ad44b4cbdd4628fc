import { css, type CSSResultGroup } from 'lit';

/** A group of choices in a thin frame: the checklists of Migrate and Organizer, a review card. */
export const framedFieldsetStyles = css`
  fieldset {
    border: 1px solid var(--opl-color-border);
    border-radius: var(--opl-radius);
    padding: var(--opl-space-3) var(--opl-space-4);
    margin: 0 0 var(--opl-space-4);
  }
`;

/** The framed group with its legend in bold, as its heading. */
export const framedGroupStyles: CSSResultGroup = [
  framedFieldsetStyles,
  css`
    legend {
      font-weight: 600;
    }
  `,
];

/** Radio choices without a frame, one a line, under a bold legend: the source picker, Migrate's target. */
export const choiceListStyles = css`
  fieldset {
    border: none;
    padding: 0;
    margin: 0 0 var(--opl-space-4);
  }

  legend {
    font-weight: 600;
    margin-bottom: var(--opl-space-2);
  }

  label.choice {
    display: flex;
    gap: var(--opl-space-2);
    align-items: center;
    font-weight: 400;
    padding: var(--opl-space-1) 0;
  }
`;

/** A button drawn as a link, for small moves inside a form ("choose all", "choose tracks"). */
export const linkButtonStyles = css`
  button.link {
    background: none;
    border: none;
    padding: 0;
    color: var(--opl-color-accent);
    text-decoration: underline;
    cursor: pointer;
  }
`;
