// One `import NetworkLayer` gives users the encoders and `Parameters` too.
@_exported import Encoding
// On Linux, `URLRequest`, `URLSession` and `HTTPURLResponse` live in FoundationNetworking: re-exported
// so that app code naming them needs no import of its own there, as on Apple platforms.
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
