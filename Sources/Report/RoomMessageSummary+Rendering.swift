extension RoomMessageSummary {
    /// How many rooms a report lists after the total, worst first (`worstFirst`).
    static let listedRooms = 20

    /// The total, then the worst rooms: what summary.md and report.html list of one cell's rooms.
    static func listed(_ rooms: [RoomMessageSummary]) -> [RoomMessageSummary] {
        [total(of: rooms)] + worstFirst(rooms).prefix(listedRooms)
    }

    static let columns = ["room", "members", "sent", "relayed", "received", "lost", "duplicated"]

    var cells: [String] {
        [room, "\(members)", "\(sent)", relayed.map { "\($0)" } ?? "-", "\(received)", "\(lost)", "\(duplicated)"]
    }

    static func heading(_ rooms: [RoomMessageSummary], cell: String) -> String {
        "Room messages\(cell.isEmpty ? "" : " (\(cell))"): \(rooms.count) room(s); the total, then up to \(listedRooms) rooms, "
            + "most lost first (relayed: the built-in server's copies delivered; lost: sequence numbers missing at a receiver)"
    }

    /// summary.md's rooms table for one cell.
    static func markdown(_ rooms: [RoomMessageSummary], cell: String) -> [String] {
        guard !rooms.isEmpty else { return [] }
        var lines = [heading(rooms, cell: cell) + ":", "", "| " + columns.joined(separator: " | ") + " |",
                     "|" + String(repeating: "---|", count: columns.count)]
        for room in listed(rooms) {
            lines.append("| " + room.cells.map(InteropMatrixMarkdown.escape).joined(separator: " | ") + " |")
        }
        return lines + [""]
    }

    /// report.html's rooms table for one cell.
    static func html(_ rooms: [RoomMessageSummary], cell: String) -> String {
        guard !rooms.isEmpty else { return "" }
        var html = "<p>\(Format.escape(heading(rooms, cell: cell)))</p><table class=\"rooms\"><tr>"
            + columns.map { "<th>\($0)</th>" }.joined() + "</tr>"
        for room in listed(rooms) {
            html += "<tr\(room.lost + room.duplicated > 0 ? " class=\"fail\"" : "")>" + room.cells.map { "<td>\(Format.escape($0))</td>" }.joined() + "</tr>"
        }
        return html + "</table>"
    }
}
