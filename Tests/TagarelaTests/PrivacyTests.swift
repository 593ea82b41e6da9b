import Foundation
import GRDB
import HTTPTestSupport
@testable import Tagarela
import Testing

/// The patient's rights over their data (issue 49, item 2): a family sees and downloads everything held
/// about the child but the clinicians' private notes; an erasure is asked by the family, decided by the
/// clinic's administrator, and leaves nothing of the patient but the audit log under a pseudonym.
@Suite struct PrivacyTests {
    static let privateNote = "Nota privada: mãe parece cansada"
    static let sharedNote = "Usou QUERO sozinha no lanche"

    /// Carla (tutor bruno) with a photo, a private and a shared observation, and a recorded symbol sound.
    static func carla(_ test: TestApp) throws -> (id: Int64, photo: String) {
        let carla = try test.id(of: "Carla Costa"), ana = try test.id(of: "ana")
        let media = test.app.configuration.mediaDirectory
        try FileManager.default.createDirectory(atPath: media + "/photos", withIntermediateDirectories: true)
        let photo = "photos/\(UUID().uuidString.lowercased()).jpg"
        FileManager.default.createFile(atPath: media + "/" + photo, contents: Data(PhotoTests.png))
        try test.write { db in
            try db.execute(sql: "UPDATE patient SET photoPath = ?, notes = 'Clinician only' WHERE userId = ?", arguments: [photo, carla])
            for (body, isPrivate) in [(privateNote, true), (sharedNote, false)] {
                try db.execute(sql: """
                    INSERT INTO observation (patientId, authorId, authorName, authorRole, observedOn, body, isPrivate, createdAt)
                    VALUES (?, ?, 'Ana Souza', 'clinician', '2026-11-20', ?, ?, ?)
                    """, arguments: [carla, ana, body, isPrivate, test.clock.now])
            }
            // What People.updatePatient writes when a clinician saves her record: her name in the summary.
            try AuditContext(actorId: ana, actorName: "Ana Souza", clientAddress: "10.0.0.9", now: test.clock.now)
                .record(.update, "patient", carla, "Carla Costa", db)
        }
        return (carla, photo)
    }

    /// Synchronous, so GRDB does not pick its async variant inside an async test.
    static func checkpoint(_ test: TestApp) throws {
        try test.app.poolForTests.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }

    @Test func everyTableThatHoldsAPatientIsInTheArchiveOrSaysWhyNot() async throws {
        let test = try await TestApp(seedDemo: false)
        let covered = Set(PatientArchive.sections.flatMap(\.tables)).union(PatientArchive.leftOut.keys)
        let holding = try test.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").filter { table in
                let columns = try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]).map { $0["name"] as String }
                let references = try String.fetchAll(db, sql: "SELECT \"table\" FROM pragma_foreign_key_list(?)", arguments: [table])
                return columns.contains("patientId") || columns.contains("patientModeFor") || references.contains("patient")
            }
        }
        #expect(holding.count > 20)
        #expect(holding.filter { !covered.contains($0) } == [])
        // Every section's query runs on an empty database.
        #expect(try test.read { db in try PatientArchive.counts(patientId: 1, db) }.count == PatientArchive.sections.count)
    }

    @Test func aTutorDownloadsEverythingButTheClinicsPrivateNotes() async throws {
        let test = try await TestApp()
        let (carla, photo) = try Self.carla(test)
        let bruno = try test.browser(loggedInAs: "bruno")
        let page = try bruno.get("/patients/\(carla)/privacy")
        #expect(page.status == 200)
        #expect(page.text.contains("Tudo o que o Tagarela guarda sobre Carla Costa"))
        #expect(page.text.contains("Não incluídas:"))
        #expect(page.text.contains("nota(s) privada(s)"))
        #expect(try bruno.get("/patients/\(carla)").text.contains("/patients/\(carla)/privacy"))

        let zip = try bruno.get("/patients/\(carla)/privacy/archive.zip")
        #expect(zip.status == 200)
        #expect(zip.header("Content-Type") == "application/zip")
        #expect(zip.header("Content-Disposition")?.contains("tagarela-carla-costa-") == true)
        let path = test.dataDirectory + "/archive.zip"
        FileManager.default.createFile(atPath: path, contents: Data(zip.body))
        let archive = try OBZArchive(path: path)
        let index = String(decoding: try archive.data(at: "index.html"), as: UTF8.self)
        #expect(index.contains("Tagarela: os dados de Carla Costa"))
        #expect(index.contains(Self.sharedNote))
        #expect(!index.contains(Self.privateNote))
        #expect(!index.contains("Clinician only"))
        #expect(index.contains(#"<img src="media/photo.jpg""#))
        let json = try #require(try JSONSerialization.jsonObject(with: try archive.data(at: "data.json", isJSON: true)) as? [String: Any])
        let sections = try #require(json["sections"] as? [String: [[String: Any]]])
        #expect(sections.count == PatientArchive.sections.count)
        #expect((sections["meals"]?.count ?? 0) > 0)
        #expect((sections["boards"]?.count ?? 0) > 0)
        #expect(sections["person"]?.first?["diagnosis"] as? String == "Transtorno do espectro autista")
        let observations = sections["observations"]?.compactMap { $0["body"] as? String } ?? []
        #expect(observations.contains(Self.sharedNote))
        #expect(!observations.contains(Self.privateNote))
        let csv = String(decoding: try archive.data(at: "csv/meals.csv"), as: UTF8.self)
        #expect(csv.hasPrefix("meal,date,time,type,"))
        #expect(try archive.data(at: "media/photo.jpg") == Data(PhotoTests.png))
        _ = photo
        let audited = try test.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM auditEntry WHERE action = 'export' AND entityId = ? AND summary = 'privacy archive'",
                             arguments: [carla])
        }
        #expect(audited == 1)
    }

    @Test func onlyThePatientAndTheirTutorsReachIt() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa"), elisa = try test.id(of: "elisa")
        let paths = ["/patients/\(carla)/privacy", "/patients/\(carla)/privacy/archive.zip"]
        for path in paths {
            #expect(try test.browser(loggedInAs: "beatriz").get(path).status == 404)
            #expect(try test.browser(loggedInAs: "ana").get(path).status == 403)
            #expect(try test.browser(loggedInAs: "admin").get(path).status == 403)
            #expect(try test.browser(loggedInAs: "elisa").get(path).status == 403 || test.browser(loggedInAs: "elisa").get(path).status == 404)
        }
        let elisaBrowser = try test.browser(loggedInAs: "elisa")
        #expect(try elisaBrowser.get("/patients/\(elisa)/privacy").status == 200)
        #expect(try elisaBrowser.get("/patient").text.contains("/patients/\(elisa)/privacy"))

        // The child holding the tablet: no page, no request.
        let tablet = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        #expect(try tablet.get(paths[0]).status == 403)
        #expect(!(try tablet.get("/patient").text.contains("/privacy")))
        let asked = try tablet.post("/patients/\(carla)/privacy/erasure", [("confirm", "1")])
        #expect(asked.status == 403)
        #expect(try test.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM erasureRequest") } == 0)
    }

    @Test func anErasureAskedTwiceIsOneRequestAndTheClinicDecidesWithItsReason() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa")
        let bruno = try test.browser(loggedInAs: "bruno")
        let unconfirmed = try bruno.post("/patients/\(carla)/privacy/erasure", [("reason", "Mudamos de cidade")])
        #expect(unconfirmed.status == 422)
        #expect(unconfirmed.text.contains("Mudamos de cidade"))
        #expect(unconfirmed.text.contains("Marque a caixa"))
        for _ in 0..<2 { #expect(try bruno.post("/patients/\(carla)/privacy/erasure", [("reason", "Mudamos de cidade"), ("confirm", "1")]).status == 303) }
        #expect(try test.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM erasureRequest WHERE status = 'open'") } == 1)
        #expect(try bruno.get("/patients/\(carla)/privacy").text.contains("aguardando a decisão da clínica"))

        let admin = try test.browser(loggedInAs: "admin")
        #expect(try admin.get("/admin").text.contains("Pedidos de exclusão (1 aguardando)"))
        let list = try admin.get("/admin/erasures")
        #expect(list.text.contains("Carla Costa"))
        #expect(list.text.contains("Mudamos de cidade"))
        #expect(list.text.contains("Ana Souza, Nádia Lima"))
        let requestId = try #require(try test.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM erasureRequest") })
        let noReason = try admin.post("/admin/erasures/\(requestId)/decline", [("confirm", "1")])
        #expect(noReason.status == 422)
        #expect(noReason.text.contains("Escreva o motivo da clínica"))
        let reason = "Prontuário guardado por 20 anos (CFM 1.821/2007)"
        #expect(try admin.post("/admin/erasures/\(requestId)/decline", [("note", reason), ("confirm", "1")]).status == 303)
        // A second tab's decision on a decided request changes nothing.
        #expect(try admin.post("/admin/erasures/\(requestId)/erase", [("note", "ok"), ("confirm", "1")]).status == 303)
        #expect(try test.read { db in try String.fetchOne(db, sql: "SELECT status FROM erasureRequest") } == "declined")
        #expect(try test.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM patient WHERE userId = ?", arguments: [carla]) } == 1)
        let seen = try bruno.get("/patients/\(carla)/privacy").text
        #expect(seen.contains("a clínica recusou o último pedido"))
        #expect(seen.contains("CFM 1.821/2007"))

        // Asked again, then withdrawn: nothing erased.
        #expect(try bruno.post("/patients/\(carla)/privacy/erasure", [("confirm", "1")]).status == 303)
        #expect(try bruno.post("/patients/\(carla)/privacy/erasure/withdraw").status == 303)
        #expect(try test.read { db in try String.fetchAll(db, sql: "SELECT status FROM erasureRequest ORDER BY id") } == ["declined", "withdrawn"])
    }

    @Test func anErasureLeavesNothingOfThePatientButAnAnonymisedAuditLog() async throws {
        let test = try await TestApp()
        let (carla, photo) = try Self.carla(test)
        let media = test.app.configuration.mediaDirectory
        let replica = test.dataDirectory + "/replica"
        let sync = { () throws -> Int32 in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: TestApp.repositoryRoot + "/deploy/sync-media")
            process.arguments = [media, replica]
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try sync() == 0)
        #expect(FileManager.default.fileExists(atPath: replica + "/" + photo))

        let bruno = try test.browser(loggedInAs: "bruno")
        _ = try bruno.get("/patients/\(carla)/report")  // an export, audited with her name
        let tablet = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        #expect(try bruno.post("/patients/\(carla)/privacy/erasure", [("confirm", "1")]).status == 303)
        let requestId = try #require(try test.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM erasureRequest") })
        let admin = try test.browser(loggedInAs: "admin")
        let unticked = try admin.post("/admin/erasures/\(requestId)/erase", [("note", "Pedido da família")])
        #expect(unticked.status == 422)
        #expect(unticked.text.contains("Pedido da família"))
        let auditBefore = try test.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM auditEntry") } ?? 0
        #expect(try admin.post("/admin/erasures/\(requestId)/erase", [("note", "Pedido da família"), ("confirm", "1")]).status == 303)

        // Her pages are gone for everyone, and the tablet left in patient mode is signed out, not handed the tutor's session.
        #expect(try bruno.get("/patients/\(carla)").status == 404)
        #expect(try test.browser(loggedInAs: "ana").get("/patients/\(carla)").status == 404)
        #expect(try tablet.get("/patient").status == 303)
        #expect(try tablet.get("/tutor").status == 303)

        let left = try test.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").flatMap { table in
                try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]).map { $0["name"] as String }
                    .filter { ["patientId", "patientModeFor", "userId"].contains($0) && table != "erasureRequest" }
                    .compactMap { column in
                        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\" WHERE \"\(column)\" = ?", arguments: [carla]) ?? 0
                        return count > 0 ? "\(table).\(column): \(count)" : nil
                    }
            }
        }
        #expect(left == [])
        let audit = try test.read { db in try Row.fetchAll(db, sql: "SELECT actorName, summary FROM auditEntry") }
        #expect(audit.count > auditBefore)  // nothing removed from the log; the decision added
        #expect(!audit.contains { ($0["summary"] as String).contains("Carla Costa") || ($0["actorName"] as String).contains("Carla Costa") })
        #expect(audit.contains { ($0["summary"] as String).contains("erased person #\(requestId)") })
        let request = try test.read { db in try Row.fetchOne(db, sql: "SELECT * FROM erasureRequest WHERE id = ?", arguments: [requestId]) }
        #expect(request?["status"] as String? == "erased")
        #expect(request?["patientName"] as String? == "erased person #\(requestId)")
        #expect(try admin.get("/admin/erasures").text.contains("Apagado em"))

        // The photo is deleted here, listed for the replica, and deleted there by the next copy.
        #expect(!FileManager.default.fileExists(atPath: media + "/" + photo))
        #expect(try String(contentsOfFile: media + "/.erased/erasure-\(requestId).txt", encoding: .utf8) == photo + "\n")
        #expect(try sync() == 0)
        #expect(!FileManager.default.fileExists(atPath: replica + "/" + photo))
        #expect(!FileManager.default.fileExists(atPath: replica + "/.erased"))

        // The freed pages were overwritten: once checkpointed, the database file no longer holds her words.
        try Self.checkpoint(test)
        let file = try Data(contentsOf: URL(fileURLWithPath: test.dataDirectory + "/db/tagarela.sqlite"))
        for secret in [Self.sharedNote, Self.privateNote, "Transtorno do espectro autista"] {
            #expect(file.range(of: Data(secret.utf8)) == nil, "\(secret) is still in the database file")
        }
    }
}

/// Recorded sounds and uploaded pictures are served by relationship (issue 49, item 5): a name learned
/// elsewhere opens nothing to someone who sees no record using it.
@Suite struct MediaAccessTests {
    @Test func aRecordingOrPictureIsServedOnlyToThoseWhoSeeARecordUsingIt() async throws {
        let test = try await TestApp()
        let carla = try test.id(of: "Carla Costa"), ana = try test.id(of: "ana")
        let audio = test.app.configuration.audioFolder, media = test.app.configuration.mediaDirectory
        try FileManager.default.createDirectory(atPath: media + "/images", withIntermediateDirectories: true)
        let ownPicture = "\(UUID().uuidString.lowercased()).png", generalPicture = "\(UUID().uuidString.lowercased()).png"
        let ownSound = "rec-\(UUID().uuidString.lowercased()).mp3"
        for file in [media + "/images/" + ownPicture, media + "/images/" + generalPicture] {
            FileManager.default.createFile(atPath: file, contents: Data(PhotoTests.png))
        }
        FileManager.default.createFile(atPath: audio + "/" + ownSound, contents: Data("ID3".utf8))
        defer { try? FileManager.default.removeItem(atPath: audio + "/" + ownSound) }
        let generated = try #require(try test.read { db in
            try String.fetchOne(db, sql: "SELECT audioFile FROM symbol WHERE audioKind = 'generated' AND audioFile IS NOT NULL")
        })
        try test.write { db in
            let category = try Int64.fetchOne(db, sql: "SELECT id FROM category WHERE clinicianId = ?", arguments: [ana])!
            for (patient, image, sound) in [(carla as Int64?, ownPicture, ownSound as String?), (nil, generalPicture, nil)] {
                try db.execute(sql: """
                    INSERT INTO symbol (clinicianId, patientId, categoryId, name, spokenText, imagePath, audioFile, audioKind, createdAt, updatedAt)
                    VALUES (?, ?, ?, 'casa da vó', 'casa da vó', ?, ?, ?, ?, ?)
                    """, arguments: [ana, patient, category, "images/" + image, sound, sound == nil ? "generated" : "recorded",
                                     test.clock.now, test.clock.now])
            }
        }
        let own = ["/media/images/" + ownPicture, "/media/audio/" + ownSound]
        let general = "/media/images/" + generalPicture
        // Carla's tutor and clinicians, and Carla herself on the tablet: her symbol's picture and her grandmother's voice.
        let tablet = try test.patientMode(of: "Carla Costa", openedBy: "bruno")
        for browser in [try test.browser(loggedInAs: "bruno"), try test.browser(loggedInAs: "ana"), try test.browser(loggedInAs: "nadia"), tablet] {
            for path in own + [general] { #expect(try browser.get(path).status == 200, "\(path)") }
        }
        // Davi's family sees Ana's general symbols (Davi is her patient), never Carla's own.
        let beatriz = try test.browser(loggedInAs: "beatriz")
        #expect(try beatriz.get(general).status == 200)
        for path in own { #expect(try beatriz.get(path).status == 404) }
        // No patient of Ana's: nothing but generated speech, which anyone can name from its text.
        for person in ["elisa", "dani", "admin"] {
            let browser = try test.browser(loggedInAs: person)
            for path in own + [general] { #expect(try browser.get(path).status == 404, "\(person) \(path)") }
            #expect(try browser.get("/media/audio/" + generated).status == 200)
        }
        #expect(try test.browser().get(own[0]).status == 303)
    }
}
