import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The validator that came with the first part of a download, kept on its file, so that a
/// resumption asks for the rest only of that same file: `If-Range` (RFC 9110 §13.1.5).
///
/// Without it, a file that changed on the server between the interruption and the resumption
/// gave the old file's head joined to the new file's tail (issue 23, item 10). With it, the
/// server answers `206` only when its file is still the one the part came from, and a `200`
/// (the whole new file) otherwise, which replaces the partial file.
///
/// The validator is the response's `ETag` unless it is weak (a weak tag must not be sent in
/// `If-Range`), else its `Last-Modified` when that is a strong validator: at least one second
/// before the response's `Date` (RFC 9110 §8.8.2.2), since a file changed twice within the same
/// second has one date for two contents. It is kept in the file's extended attribute
/// `user.networklayer.validator`, written when the response's head arrives, so it survives an
/// interruption at any point of the body and goes wherever the file goes. A partial file without
/// one (its response had none, or the file system keeps no extended attributes) is not resumed.
///
/// The attribute is also what says a partial file is the package's own: it is written, empty
/// when the response has no validator, on every file a download body is written to. A file at
/// `<destination>.partial` without it is someone else's, and is neither resumed from nor removed.
/// A file delivered to its destination has it removed (``unmark(_:)``): it is the user's from
/// then on, wherever it sits.
enum ResumeValidator {
    static let attributeName = "user.networklayer.validator"

    /// The validator to send in `If-Range` for a body from `response`; `nil` when it has none.
    static func validator(of response: HTTPURLResponse) -> String? {
        if let etag = response.value(forHTTPHeaderField: "ETag")?.trimmingCharacters(in: .whitespaces),
            !etag.isEmpty, !etag.hasPrefix("W/")
        {
            return etag
        }
        guard let lastModified = response.value(forHTTPHeaderField: "Last-Modified"),
            let modified = HTTPDate.parse(lastModified),
            let sent = response.value(forHTTPHeaderField: "Date").flatMap(HTTPDate.parse),
            sent.timeIntervalSince(modified) >= 1
        else { return nil }
        return lastModified
    }

    /// Keeps `validator` on the open file `descriptor`, or an empty value when `nil`, which marks
    /// the file as the package's without a validator to resume against.
    static func record(_ validator: String?, on descriptor: Int32) {
        var bytes = validator.map { Array($0.utf8) } ?? []
        // 8 KiB: header values the server controls are bounded well below that elsewhere. Better
        // no resumption than one without its validator.
        if bytes.count > 8_192 { bytes = [] }
        if !setAttribute(descriptor, bytes) {
            _ = removeAttribute(descriptor)
        }
    }

    /// Whether the file at `url` carries the attribute, with a validator or empty: a file a
    /// download of the package's wrote. `false` when there is no such file, or the file system
    /// keeps no extended attributes.
    static func isMarked(_ url: URL) -> Bool {
        ExtendedAttributes.get(url.path, attributeName, nil, 0) >= 0
    }

    /// Removes the attribute from the file at `url`, a download just put in place: a later
    /// resumable download whose `.partial` path it sits at would otherwise take the user's file
    /// for a partial of its own, and resume over it or remove it. A link is not followed.
    static func unmark(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = removeAttribute(descriptor)
    }

    /// The validator kept on the file at `url`; `nil` when there is none.
    static func read(from url: URL) -> String? {
        var buffer = [UInt8](repeating: 0, count: 8_192)
        let count = buffer.withUnsafeMutableBytes { bytes -> Int in
            ExtendedAttributes.get(url.path, attributeName, bytes.baseAddress, bytes.count)
        }
        // Visible ASCII and spaces only: a header value with a control character would be
        // dropped by URLRequest, and the Range sent without its If-Range.
        guard count > 0, buffer.prefix(count).allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    private static func setAttribute(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            ExtendedAttributes.set(descriptor, attributeName, buffer.baseAddress, buffer.count) == 0
        }
    }

    private static func removeAttribute(_ descriptor: Int32) -> Bool {
        ExtendedAttributes.remove(descriptor, attributeName) == 0
    }
}

/// `getxattr(2)`, `fsetxattr(2)` and `fremovexattr(2)`. Glibc's Swift module does not include
/// `<sys/xattr.h>`, so on Linux they are looked up in the C library once; a platform without
/// them keeps no validator, and partial files are then not resumed.
private enum ExtendedAttributes {
    #if canImport(Darwin)
    static func get(_ path: String, _ name: String, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int {
        getxattr(path, name, value, size, 0, 0)
    }

    static func set(_ descriptor: Int32, _ name: String, _ value: UnsafeRawPointer?, _ size: Int) -> Int32 {
        fsetxattr(descriptor, name, value, size, 0, 0)
    }

    static func remove(_ descriptor: Int32, _ name: String) -> Int32 {
        fremovexattr(descriptor, name, 0)
    }
    #else
    private typealias Get = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, Int) -> Int
    private typealias Set = @convention(c) (Int32, UnsafePointer<CChar>?, UnsafeRawPointer?, Int, Int32) -> Int32
    private typealias Remove = @convention(c) (Int32, UnsafePointer<CChar>?) -> Int32

    private static let getFunction = symbol("getxattr", as: Get.self)
    private static let setFunction = symbol("fsetxattr", as: Set.self)
    private static let removeFunction = symbol("fremovexattr", as: Remove.self)

    private static func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(address, to: type)
    }

    static func get(_ path: String, _ name: String, _ value: UnsafeMutableRawPointer?, _ size: Int) -> Int {
        getFunction?(path, name, value, size) ?? -1
    }

    static func set(_ descriptor: Int32, _ name: String, _ value: UnsafeRawPointer?, _ size: Int) -> Int32 {
        setFunction?(descriptor, name, value, size, 0) ?? -1
    }

    static func remove(_ descriptor: Int32, _ name: String) -> Int32 {
        removeFunction?(descriptor, name) ?? -1
    }
    #endif
}
