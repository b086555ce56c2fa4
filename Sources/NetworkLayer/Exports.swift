@_exported import Encoding
