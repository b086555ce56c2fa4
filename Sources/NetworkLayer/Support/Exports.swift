// One `import NetworkLayer` is enough for code that describes and sends requests: the encoders
// and `Parameters`, Foundation's `URL`, `Data` and `JSONDecoder`, and, on Linux, the networking
// types (`URLRequest`, `URLSession`, `HTTPURLResponse`) that live in FoundationNetworking there
// and in Foundation on Apple platforms. Scripts/check-install builds an app with only this import.
@_exported import Encoding
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
