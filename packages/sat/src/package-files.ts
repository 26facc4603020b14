import {
  CfdiPackageReader,
  FilteredPackageReader,
  MetadataFileFilter,
} from '@nodecfdi/sat-ws-descarga-masiva';

// A downloaded package as the files the one import path takes (docs/sat-sync.md#gateway): the CFDI
// of a CFDI package for importCfdiFiles, the metadata files (not the `_tercero` ones) of a metadata
// package for importSatMetadata. Read by the library's own package readers.

export interface PackageFile {
  name: string;
  content: string;
}

/** The package's CFDI, each named `UUID.xml`. */
export async function* cfdiFilesOf(zip: Uint8Array): AsyncGenerator<PackageFile> {
  const reader = await CfdiPackageReader.createFromContents(Buffer.from(zip).toString('binary'));
  for await (const entry of reader.cfdis()) {
    for (const [uuid, content] of entry) yield { name: `${uuid.toUpperCase()}.xml`, content };
  }
}

/** The package's metadata files, as SAT wrote them (`~`-separated, a header line). */
export async function* metadataFilesOf(zip: Uint8Array): AsyncGenerator<PackageFile> {
  const reader = await FilteredPackageReader.createFromContents(Buffer.from(zip).toString('binary'));
  await reader.destruct(); // the archive is in memory: its temporary file goes now, as CfdiPackageReader does
  reader.setFilter(new MetadataFileFilter());
  for await (const entry of reader.fileContents()) {
    for (const [name, content] of entry) yield { name, content };
  }
}
