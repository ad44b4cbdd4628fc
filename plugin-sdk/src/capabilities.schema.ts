import { z } from 'zod';
import { AUTH_KINDS, CAPABILITIES, PLAYLIST_KINDS } from './capabilities.ts';

export const capabilitySchema = z.enum(CAPABILITIES);
export const authKindSchema = z.enum(AUTH_KINDS);
export const playlistKindSchema = z.enum(PLAYLIST_KINDS);
