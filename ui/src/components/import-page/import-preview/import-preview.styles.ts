import { css } from 'lit';

/** Adopted by the Import page, whose shadow root the preview renders into: the element adds no box of its own. */
export const importPreviewStyles = css`
  opl-import-preview {
    display: contents;
  }
`;
