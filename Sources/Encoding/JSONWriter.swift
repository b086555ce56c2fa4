import Foundation

/// Writes parameter values as JSON text (RFC 8259), checking each value on the way.
///
/// Our own writer rather than `JSONSerialization`, because `JSONSerialization` traps on Apple
/// platforms for `nan` and unsupported objects, prints numbers differently on Linux and Apple
/// platforms, and cannot say which key held a bad value.
struct JSONWriter {
    let sortedKeys: Bool
    let prettyPrinted: Bool
    private(set) var output: [UInt8] = []
    private var keyPath = ParameterKeyPath()
    private var depth = 0

    init(sortedKeys: Bool, prettyPrinted: Bool) {
        self.sortedKeys = sortedKeys
        self.prettyPrinted = prettyPrinted
        output.reserveCapacity(256)
    }

    mutating func write(_ value: Any) throws {
        switch ParameterValue(value) {
        case .string(let string):
            writeString(string)
        case .number(let number, let isFinite):
            guard isFinite else { throw ParameterEncodingError.nonFiniteNumber(number, at: keyPath) }
            output.append(contentsOf: number.utf8)
        case .bool(let bool):
            output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .null:
            output.append(contentsOf: "null".utf8)
        case .array(let array):
            try writeArray(array)
        case .dictionary(let dictionary):
            try writeObject(dictionary)
        case .unsupported(let type):
            throw ParameterEncodingError.unsupportedValue(keyPath: keyPath.rendered, type: type)
        }
    }

    private mutating func writeArray(_ array: [Any]) throws {
        try keyPath.checkDepth()
        output.append(UInt8(ascii: "["))
        depth += 1
        for (index, element) in array.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            newline()
            keyPath.push(index: index)
            try write(element)
            keyPath.pop()
        }
        depth -= 1
        if !array.isEmpty { newline() }
        output.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject(_ dictionary: [String: Any]) throws {
        try keyPath.checkDepth()
        output.append(UInt8(ascii: "{"))
        depth += 1
        let members: [(key: String, value: Any)] =
            sortedKeys ? dictionary.sorted(by: { $0.key < $1.key }) : Array(dictionary)
        for (index, member) in members.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            newline()
            writeString(member.key)
            output.append(contentsOf: prettyPrinted ? Array(" : ".utf8) : [UInt8(ascii: ":")])
            keyPath.push(key: member.key)
            try write(member.value)
            keyPath.pop()
        }
        depth -= 1
        if !members.isEmpty { newline() }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func newline() {
        guard prettyPrinted else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func writeString(_ string: String) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(Self.hexDigits[Int(byte >> 4)])
                output.append(Self.hexDigits[Int(byte & 0x0F)])
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
