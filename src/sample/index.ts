/**
 * sample: the deterministic e-commerce sample lakehouse (namespace `sample`) that the first `npm start`
 * creates and `lakegate sample --scale N` rebuilds. Public surface of the module.
 */
export {
  buildSampleLakehouse, dropSampleNamespace, sampleState, SAMPLE_MARKER_PROPERTY,
  type BuildSampleOptions, type SampleBuildResult, type SampleState, type SampleTarget,
} from './build-sample-lakehouse.ts';
export { ProgressBar, formatDuration, type ProgressStream } from './progress-bar.ts';
export { SAMPLE_NAMESPACE, SAMPLE_TABLES, sampleSizes, type SampleTableDef, type SampleTableName } from './sample-schema.ts';
export { sampleBatches, sampleRowCounts } from './sample-batches.ts';
export { sampleWorld } from './sample-world.ts';
