/**
 * `lakegate sample [--scale N] [--warehouse DIR] [--config FILE]`: drops the sample namespace of the
 * configured warehouse and writes it again at that scale, with a progress bar on stderr, then exits.
 * It opens the catalog exactly as the server does (config file, LAKEGATE_* variables, flags), so a
 * server running on the same warehouse sees the new tables at its next statement.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { createEngine } from './main.ts';

const USAGE = 'usage: lakegate sample [--scale N] [--warehouse DIR] [--config FILE]\n';

export async function runSampleCommand(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      scale: { type: 'string' },
      warehouse: { type: 'string' },
      config: { type: 'string' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}Drops and rebuilds the Iceberg schema "sample" (scale 1 ≈ 1.08 million rows; 0.01 for a quick one).\n`
      + 'A "sample" schema lakegate did not create is left alone unless --force is given.\n');
    return 0;
  }
  if (values.scale !== undefined && !(Number(values.scale) > 0)) {
    process.stderr.write(`lakegate sample: --scale must be a positive number, got "${values.scale}"\n${USAGE}`);
    return 2;
  }
  const config = await loadConfig({
    ...(values.warehouse !== undefined && { warehouse: values.warehouse }),
    ...(values.config !== undefined && { config: values.config }),
    ...(values.scale !== undefined && { sampleScale: values.scale }),
    sample: false, // the engine must not build it on its own first
  });
  const { rebuildSample, describeRows, engineSampleTarget } = await import('./startup-sample.ts');
  const { sampleState, formatDuration, SAMPLE_NAMESPACE } = await import('../sample/index.ts');
  const engine = await createEngine(config);
  try {
    const target = engineSampleTarget(engine, config);
    if (target === undefined) {
      process.stderr.write('lakegate sample: no Iceberg catalog is configured (warehouse)\n');
      return 1;
    }
    if ((await sampleState(target.catalog)) === 'foreign' && values.force !== true) {
      process.stderr.write(`lakegate sample: schema "${SAMPLE_NAMESPACE}" exists and was not made by lakegate; --force drops it (its tables' files are kept)\n`);
      return 1;
    }
    process.stderr.write(`lakegate: rebuilding the sample dataset (schema "${SAMPLE_NAMESPACE}", scale ${config.sample_scale}) in ${config.warehouse}\n`);
    const result = await rebuildSample(engine, { ...config, sample_data: true }, process.stderr);
    process.stdout.write(`sample dataset written in ${formatDuration(result.seconds)}: ${describeRows(result)}\n`);
    return 0;
  } finally {
    await engine.close();
  }
}
