// ESLint flat config. Type-aware rules on the TypeScript sources, plus import restrictions that keep
// the dependency direction of the design: ui talks only HTTP; plugins import only plugin-sdk;
// plugin-sdk imports nothing of core; domain/ and matching/ do no I/O; http -> services -> domain.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeIo = ['node:fs', 'node:fs/promises', 'node:net', 'node:http', 'node:https', 'node:child_process', 'node:dgram', 'node:dns', 'pg', 'undici', 'pg-boss', '@mikro-orm/*', 'fastify'];

const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group: [group], message })) }],
});

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'ui/dist/**', 'data/**', '.tools/**', 'registry/index.json', 'registry/keys/**', 'registry/plugins/**', 'plugins/*/*/dist/**', '**/*.generated.*', 'test-results/**', 'plugin-sdk/.pack/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'core/bootstrap/*.mjs', 'core/bin/*.mjs'] }, tsconfigRootDir: import.meta.dirname },
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'always'],
      // fastify plugins and handlers are async by contract even when they do not await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  // The UI is a separate program that talks to the engine only over HTTP.
  { files: ['ui/**/*.ts'], rules: restrict(['**/core/**', '**/plugins/**', '**/registry/**', 'node:*'], 'ui/ talks to the engine only over HTTP.') },
  // Plugins are built with the public SDK only, like a third party's.
  {
    files: ['plugins/**/*.ts'],
    rules: restrict(['**/core/**', '**/ui/**', '**/test/**', 'node:*', '../../../plugin-sdk/src/**'], 'plugins/ may import only @opl/plugin-sdk.'),
  },
  // The SDK must stand alone for third parties.
  { files: ['plugin-sdk/**/*.ts'], rules: restrict(['**/core/**', '**/ui/**', '**/plugins/**'], 'plugin-sdk/ must not depend on the engine.') },
  // Pure layers: no I/O.
  { files: ['core/domain/**/*.ts', 'core/matching/**/*.ts'], rules: restrict([...nodeIo, '**/storage/**', '**/http/**', '**/jobs/**', '**/services/**'], 'domain/ and matching/ are pure: no I/O and no outer layers.') },
  // Services do not know about HTTP.
  { files: ['core/services/**/*.ts'], rules: restrict(['**/http/**', 'fastify', '@fastify/*'], 'services/ must not depend on the HTTP layer.') },
  // Storage, jobs and config sit below services and http.
  { files: ['core/storage/**/*.ts', 'core/jobs/**/*.ts', 'core/config/**/*.ts', 'core/logging/**/*.ts', 'core/plugins/**/*.ts', 'core/plugin-host/**/*.ts', 'core/net/**/*.ts'], rules: restrict(['**/http/**', '**/services/**', '**/app/**', '**/cli/**'], 'storage/, jobs/, config/, logging/, plugins/, plugin-host/ and net/ must not depend on outer layers.') },
  // Only the config module reads the environment.
  {
    files: ['core/**/*.ts'],
    ignores: ['core/config/**', 'core/cli/**'],
    rules: { 'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through core/config (the OPL_* schema), not process.env.' }] },
  },
  {
    files: ['test/**/*.ts', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
);
