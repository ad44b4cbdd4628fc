import { InvalidInput } from '../errors.ts';

/**
 * A document `parseXml` refused. It is an `InvalidInput`, so it crosses the sandbox boundary as
 * one; the position is also in the message, because only the message survives that crossing.
 */
export class XmlParseError extends InvalidInput {
  readonly line: number | null;
  readonly column: number | null;

  constructor(reason: string, line: number | null, column: number | null) {
    super(line === null ? `XML refused: ${reason}` : `XML refused at line ${line}, column ${column ?? 1}: ${reason}`);
    this.line = line;
    this.column = column;
  }
}
