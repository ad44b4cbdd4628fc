import { startFakeAppleMusic } from '../../fakes/applemusic/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// Apple Music: the engine adds the developer JWT it signs to every call; Apple exposes no account
// id (the plugin reports "me"); appends only, and appended tracks show after a few reads.
describeAdapterContract({
  provider: 'applemusic',
  pluginDir: 'plugins/providers/applemusic',
  startFake: () => startFakeAppleMusic(),
  callHeaders: (fake) => ({ authorization: `Bearer ${fake.developerToken()}` }),
  accountId: () => 'me',
  appendOnly: true,
  writeVisibleAfterReads: 3,
});
