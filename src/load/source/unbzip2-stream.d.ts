/** unbzip2-stream ships no types: a function returning a through stream (bzip2 in, plain bytes out). */
declare module 'unbzip2-stream' {
  function unbzip2Stream(): NodeJS.ReadWriteStream;
  export = unbzip2Stream;
}
