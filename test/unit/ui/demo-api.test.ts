import { describe, expect, it } from 'vitest';
import { demoChangeAnnouncement, demoChangeRequest, parseDemoChange } from '../../../ui/src/api/demo.ts';

describe('the demo change API of the Sync page', () => {
  it('sends the account, the playlist and the change', () => {
    expect(demoChangeRequest('acc', 'pl', 'move')).toEqual({ account_id: 'acc', playlist_id: 'pl', change: 'move' });
  });

  it('reads the outcome and refuses what is not one', () => {
    const body = { change: 'move', title: 'Golden Hour', artist: 'Glass Orchard', from: 4, to: 0, track_count: 7, version_before: 'a', version_after: 'b' };
    expect(parseDemoChange(body)).toEqual({ change: 'move', title: 'Golden Hour', artist: 'Glass Orchard', from: 4, to: 0, trackCount: 7 });
    expect(parseDemoChange({ ...body, change: 'shuffle' })).toBeUndefined();
    expect(parseDemoChange({ ...body, title: 3 })).toBeUndefined();
    expect(parseDemoChange(null)).toBeUndefined();
  });

  it('announces each change with 1-based positions and what the sync will do with it', () => {
    const song = { title: 'Golden Hour', artist: 'Glass Orchard', trackCount: 7 };
    expect(demoChangeAnnouncement({ ...song, change: 'add', from: null, to: 6 }, 'Commute')).toBe('Demo: “Golden Hour” by Glass Orchard was added to the demo source of “Commute” at position 7. Run now to sync it.');
    expect(demoChangeAnnouncement({ ...song, change: 'remove', from: 2, to: null }, 'Commute')).toBe('Demo: “Golden Hour” by Glass Orchard was removed from the demo source of “Commute” (it was at position 3). Add only keeps it on the target.');
    expect(demoChangeAnnouncement({ ...song, change: 'move', from: 4, to: 0 }, 'Commute')).toBe('Demo: “Golden Hour” by Glass Orchard moved from position 5 to 1 in the demo source of “Commute”. Add only does not reorder the target.');
  });
});
