// Another process holding the SQLite write lock: `node --import tsx lock-holder.ts FILE MS`. Prints
// "locked" once it holds the lock, keeps it for MS milliseconds, then rolls back and exits.
import sqlite3 from 'sqlite3';

const [file, ms] = process.argv.slice(2);
const db = new sqlite3.Database(file!);
db.exec('begin immediate', (err) => {
  if (err) throw err;
  process.stdout.write('locked\n');
  setTimeout(() => db.exec('rollback', () => db.close()), Number(ms));
});
