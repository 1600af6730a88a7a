import pkg from 'libpg-query';
await pkg.loadModule();
try { const r = pkg.parseSync(process.argv[2]);
console.log(JSON.stringify(r)); } catch (e) { console.log(e.message, JSON.stringify(e.sqlDetails)); }
