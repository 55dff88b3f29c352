// Preloaded (`node --require`) into a process a bench runs whole: writes the process's CPU time
// (all threads) to $SVC_BENCH_CPU_FILE when it exits.
const { writeFileSync } = require('node:fs')

process.on('exit', () => {
  const { user, system } = process.cpuUsage()
  writeFileSync(process.env.SVC_BENCH_CPU_FILE, JSON.stringify({ cpuMs: (user + system) / 1000 }))
})
