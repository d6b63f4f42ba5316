import fs from 'node:fs';

/** Alive = a /proc entry whose state is not zombie (this sandbox's init may leave zombies unreaped). */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
