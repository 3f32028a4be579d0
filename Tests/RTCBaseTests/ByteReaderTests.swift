import RTCBase
import XCTest

final class ByteReaderTests: XCTestCase {
    func testReadsBigEndianFieldsInOrder() throws {
        var reader = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a])
        XCTAssertEqual(try reader.readU8(), 0x01)
        XCTAssertEqual(try reader.readU16(), 0x0203)
        XCTAssertEqual(try reader.readU24(), 0x04_0506)
        XCTAssertEqual(try reader.readU32(), 0x0708_090a)
        XCTAssertTrue(reader.isAtEnd)
    }

    func testShortInputThrowsTruncatedInsteadOfTrapping() {
        var reader = ByteReader([0x01, 0x02, 0x03])
        XCTAssertThrowsError(try reader.readU32()) { error in
            XCTAssertEqual((error as? ParseError)?.code, .truncated)
        }
        XCTAssertEqual(reader.offset, 0, "a failed read consumes nothing")
        XCTAssertThrowsError(try reader.readSlice(-1))
        XCTAssertThrowsError(try reader.peekU8(ahead: 3))
    }

    func testSubReaderIsBoundedAndAdvancesParent() throws {
        var reader = ByteReader([9, 1, 2, 3, 4, 5])
        _ = try reader.readU8()
        var section = try reader.subReader(2)
        XCTAssertEqual(try section.readU16(), 0x0102)
        XCTAssertThrowsError(try section.readU8())
        XCTAssertEqual(try reader.readU8(), 3)
        XCTAssertEqual(Array(reader.readRest()), [4, 5])
    }

    func testU64RoundTripsThroughWriter() throws {
        var writer = ByteWriter()
        writer.writeU64(0x0102_0304_0506_0708)
        writer.writeU24(0xabcdef)
        writer.writeU16(0)
        writer.patchU16(0xbeef, at: 11)
        var reader = ByteReader(writer.bytes)
        XCTAssertEqual(try reader.readU64(), 0x0102_0304_0506_0708)
        XCTAssertEqual(try reader.readU24(), 0xabcdef)
        XCTAssertEqual(try reader.readU16(), 0xbeef)
    }

    func testWriterResetKeepsCapacity() {
        var writer = ByteWriter(capacity: 1500)
        writer.writeZeros(1200)
        let capacity = writer.bytes.capacity
        writer.reset()
        XCTAssertEqual(writer.count, 0)
        XCTAssertEqual(writer.bytes.capacity, capacity)
    }
}
