/**
 * How a playlist's own checkbox shows what is chosen of it, and what pressing that box does. A
 * playlist goes whole, not at all, or with only some tracks (its `pos:<n>` keys kept beside the
 * chosen ids); the box says which, so "2 chosen" beside it never sits next to a plain tick.
 */

/** `mixed`: only some tracks go (the checkbox's `indeterminate` state, `aria-checked="mixed"` to assistive technology). */
export type CollectionTick = 'checked' | 'mixed' | 'unchecked';

export interface CollectionChoice {
  readonly selected: ReadonlySet<string>;
  /** Per playlist: the track keys chosen, when only some of its tracks go. */
  readonly tracks: Readonly<Record<string, readonly string[]>>;
}

/**
 * The tracks chosen of one playlist, or undefined when none are named. Only own keys count: a
 * playlist whose id is `constructor` (an imported bundle's may be) must not find Object's function.
 */
export function chosenTracks(tracks: CollectionChoice['tracks'], id: string): readonly string[] | undefined {
  return Object.hasOwn(tracks, id) ? tracks[id] : undefined;
}

export function collectionTick(choice: CollectionChoice, id: string): CollectionTick {
  if (!choice.selected.has(id)) return 'unchecked';
  return (chosenTracks(choice.tracks, id)?.length ?? 0) > 0 ? 'mixed' : 'checked';
}

/**
 * The playlist's own box pressed: ticked, the whole playlist goes (a partly chosen one, shown
 * mixed, becomes whole, as a browser turns an indeterminate box into a ticked one); unticked,
 * none of it, and the tracks picked go with it so its track list shows nothing ticked either.
 */
export function tickCollection(choice: CollectionChoice, id: string, checked: boolean): CollectionChoice {
  const selected = new Set(choice.selected);
  if (checked) selected.add(id);
  else selected.delete(id);
  const tracks = { ...choice.tracks };
  delete tracks[id];
  return { selected, tracks };
}

/**
 * The playlist's tracks chosen are now `chosen` (of `all` its track keys): every one is the whole
 * playlist, none leaves it out, some makes it partly chosen.
 */
export function chooseCollectionTracks(choice: CollectionChoice, id: string, chosen: readonly string[], all: readonly string[]): CollectionChoice {
  if (chosen.length === 0 || chosen.length === all.length) return tickCollection(choice, id, chosen.length > 0);
  return { selected: new Set(choice.selected).add(id), tracks: { ...choice.tracks, [id]: [...chosen] } };
}
