// The layer rules of src/, checked by `npm test` (test/architecture/layers.test.ts) and by
// `npx depcruise src`. A file imports only from its own folder or from lower layers; folders
// that share a layer do not import each other.
const LAYERS = [
  ['domain'],
  ['store', 'upstream'],
  ['ingest', 'services'],
  ['server'],
  ['routes', 'stream'],
  ['demo', 'web'],
  ['app.ts'],
  ['cli'],
];

const folder = (name) => (name.endsWith('.ts') ? `^src/${name.replace('.', '[.]')}$` : `^src/${name}/`);
const rules = [];
LAYERS.forEach((layer, level) => {
  for (const name of layer) {
    const forbidden = [...LAYERS.slice(level + 1).flat(), ...layer.filter((other) => other !== name)];
    if (forbidden.length === 0) continue;
    rules.push({
      name: `layer-${name.replace('.ts', '')}`,
      comment: `src/${name} (layer ${level}) may import only its own folder and lower layers, not ${forbidden.join(', ')}`,
      severity: 'error',
      from: { path: folder(name) },
      to: { path: forbidden.map(folder).join('|') },
    });
  }
});
rules.push({
  name: 'routes-not-store',
  comment: 'src/routes reach data only through src/services (ctx.services): not the store, not even its types',
  severity: 'error',
  from: { path: '^src/routes/' },
  to: { path: '^src/store/' },
});
rules.push({
  name: 'no-circular',
  comment: 'modules that import each other in a circle cannot be read or loaded one at a time',
  severity: 'error',
  from: { path: '^src/' },
  to: { circular: true },
});

module.exports = {
  forbidden: rules,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
