import { startFakeYtmusic } from '../../fakes/ytmusic/index.ts';
import { describeAdapterContract } from './adapter-contract.ts';

// Small library pages so the contract's handful of playlists, albums and artists spans several.
describeAdapterContract({ provider: 'ytmusic', pluginDir: 'plugins/providers/ytmusic', startFake: () => startFakeYtmusic({ libraryPageSize: 3 }) });
