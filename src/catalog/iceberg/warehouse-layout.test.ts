import { describe, expect, it } from 'vitest';
import {
  defaultNamespaceLocation,
  defaultTableLocation,
  metadataFileLocation,
  newMetadataFileLocation,
  nextMetadataFileLocation,
  parseMetadataVersion,
  stripTrailingSlash,
} from './warehouse-layout.ts';

const UUID = '1b9e2c3a-7d4e-4f00-9a5b-0c1d2e3f4a5b';

describe('warehouse layout', () => {
  it('strips trailing slashes but keeps scheme roots', () => {
    expect(stripTrailingSlash('s3://b/wh/')).toBe('s3://b/wh');
    expect(stripTrailingSlash('/data//')).toBe('/data');
    expect(stripTrailingSlash('s3://')).toBe('s3://');
    expect(stripTrailingSlash('/')).toBe('/');
  });

  it('puts tables at <warehouse>/<ns levels>/<table> like JdbcCatalog', () => {
    expect(defaultTableLocation('s3://b/wh/', ['sales', 'eu'], 'orders')).toBe('s3://b/wh/sales/eu/orders');
    expect(defaultTableLocation('/data', ['db'], 't')).toBe('/data/db/t');
    expect(defaultNamespaceLocation('/data', [])).toBe('/data');
  });

  it('names metadata files <5-digit version>-<uuid>.metadata.json', () => {
    expect(metadataFileLocation('s3://b/wh/db/t', 0, UUID)).toBe(`s3://b/wh/db/t/metadata/00000-${UUID}.metadata.json`);
    expect(metadataFileLocation('s3://b/wh/db/t/', 12, UUID)).toBe(`s3://b/wh/db/t/metadata/00012-${UUID}.metadata.json`);
    expect(metadataFileLocation('/t', 123456, UUID)).toBe(`/t/metadata/123456-${UUID}.metadata.json`);
    expect(metadataFileLocation('/t', 1, UUID, { compression: 'gzip' })).toBe(`/t/metadata/00001-${UUID}.gz.metadata.json`);
    expect(metadataFileLocation('/t', 1, UUID, { metadataPath: 's3://m/p/' })).toBe(`s3://m/p/00001-${UUID}.metadata.json`);
    expect(() => metadataFileLocation('/t', -1, UUID)).toThrow(RangeError);
    expect(newMetadataFileLocation('/t', 3)).toMatch(/^\/t\/metadata\/00003-[0-9a-f-]{36}\.metadata\.json$/);
  });

  it('parses versions back, as BaseMetastoreTableOperations.parseVersion', () => {
    expect(parseMetadataVersion(`s3://b/t/metadata/00042-${UUID}.metadata.json`)).toBe(42);
    expect(parseMetadataVersion(`/t/metadata/00001-${UUID}.gz.metadata.json`)).toBe(1);
    expect(parseMetadataVersion('/t/metadata/v7.metadata.json')).toBe(7);
    expect(parseMetadataVersion('/t/metadata/v7.gz.metadata.json')).toBe(7);
    expect(parseMetadataVersion('/t/metadata/whatever.json')).toBe(-1);
    expect(nextMetadataFileLocation('/t', `/t/metadata/00004-${UUID}.metadata.json`)).toMatch(/\/t\/metadata\/00005-/);
    expect(nextMetadataFileLocation('/t', null)).toMatch(/\/t\/metadata\/00000-/);
  });
});
