/**
 * Spotify release dates come with a precision (`year`, `month`, `day`); the universal model keeps
 * exactly what is known (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`). Placeholder dates (`0000`) are unknown.
 */
export function releaseDate(value: unknown, precision: unknown): { release_date: string | null; release_year: number | null } {
  if (typeof value !== 'string') return { release_date: null, release_year: null };
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value.trim());
  if (!match || match[1] === '0000') return { release_date: null, release_year: null };
  const [, year, month, day] = match;
  const release_year = Number(year);
  if (precision === 'year' || !month) return { release_date: year!, release_year };
  if (precision === 'month' || !day) return { release_date: `${year}-${month}`, release_year };
  return { release_date: `${year}-${month}-${day}`, release_year };
}
