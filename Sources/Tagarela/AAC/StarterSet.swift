import Foundation

/// The starter core board set (issue 54, item 4): 60 high-frequency core words on one fixed 6 × 10 grid,
/// the same position in pt-BR, es, ca and en, coloured by part of speech (the modified Fitzgerald key),
/// with four folders of fringe vocabulary. The left 6 × 6 block is Project Core's Universal Core in the
/// order its own board publishes it; the four right columns add the social words, pronouns, verbs and
/// descriptors of the high-frequency lists, and the folders (docs/decisions.md, "Starter core board set").
/// Pure data; `StarterSets` stores a copy for one patient.
enum StarterSet {
    /// The modified Fitzgerald key as the set uses it: each part of speech, its colour and its category's
    /// catalogue key (the first six are the clinician's default categories).
    enum Part: String, CaseIterable, Sendable {
        case pronoun, verb, descriptor, social, noun, misc, question, negation

        var colour: CategoryColour {
            switch self {
            case .pronoun: .yellow
            case .verb: .green
            case .descriptor: .blue
            case .social: .pink
            case .noun: .orange
            case .misc: .white
            case .question: .purple
            case .negation: .red
            }
        }

        var categoryKey: String {
            switch self {
            case .pronoun: "category_people"
            case .verb: "category_actions"
            case .descriptor: "category_descriptors"
            case .social: "category_social"
            case .noun: "category_nouns"
            case .misc: "category_misc"
            case .question: "category_questions"
            case .negation: "category_negation"
            }
        }
    }

    /// One word in the four languages. `key` is its English gloss, the same in every copy.
    struct Word: Sendable, Equatable {
        let key: String
        let part: Part
        let pictogram: String
        let names: [AppLocale: String]

        init(_ part: Part, _ pictogram: String, en: String, ptBR: String, es: String, ca: String) {
            key = en
            self.part = part
            self.pictogram = pictogram
            names = [.en: en, .ptBR: ptBR, .es: es, .ca: ca]
        }

        func name(_ language: AppLocale) -> String { names[language]! }
    }

    enum Cell: Sendable, Equatable {
        case word(Word)
        /// A folder to the fringe board of that index in `fringe`, shown with its board's picture.
        case folder(Int)
    }

    /// A fringe board: its name and picture, and its words in reading order.
    struct Fringe: Sendable {
        let key: String
        let pictogram: String
        let names: [AppLocale: String]
        let rows: Int
        let columns: Int
        let words: [Word]

        func name(_ language: AppLocale) -> String { names[language]! }
    }

    static let rows = 6
    static let columns = 10
    static let names: [AppLocale: String] = [.ptBR: "Núcleo 60", .es: "Núcleo 60", .ca: "Nucli 60", .en: "Core 60"]

    private static func w(_ part: Part, _ pictogram: String, _ en: String, _ ptBR: String, _ es: String, _ ca: String) -> Cell {
        .word(Word(part, pictogram, en: en, ptBR: ptBR, es: es, ca: ca))
    }

    /// The core board, row by row: columns 1–6 are the Universal Core 36, columns 7–10 the additions.
    static let core: [Cell] = [
        // Row 1
        w(.verb, "1F44D", "like", "gostar", "gustar", "agradar"), w(.verb, "1F450", "want", "querer", "querer", "voler"),
        w(.verb, "1FAF4", "get", "pegar", "coger", "agafar"), w(.verb, "1F9F1", "make", "criar", "crear", "crear"),
        w(.descriptor, "1F31F", "good", "bom", "bueno", "bo"), w(.misc, "2795", "more", "mais", "más", "més"),
        w(.social, "2705", "yes", "sim", "sí", "sí"), w(.social, "1F44C", "okay", "tá bom", "vale", "d'acord"),
        w(.social, "1F917", "hello", "oi", "hola", "hola"), .folder(0),
        // Row 2
        w(.negation, "1F6AB", "not", "não", "no", "no"), w(.verb, "27A1", "go", "ir", "ir", "anar"),
        w(.verb, "1F440", "look", "olhar", "mirar", "mirar"), w(.verb, "1F3A0", "turn", "virar", "girar", "girar"),
        w(.verb, "1F198", "help", "ajudar", "ayudar", "ajudar"), w(.descriptor, "1F3B2", "different", "diferente", "diferente", "diferent"),
        w(.social, "1F97A", "please", "por favor", "por favor", "si us plau"),
        w(.social, "1F64F", "thank you", "obrigado", "gracias", "gràcies"),
        w(.social, "1F44B", "bye", "tchau", "adiós", "adéu"), .folder(1),
        // Row 3
        w(.pronoun, "1F64B", "I", "eu", "yo", "jo"), w(.pronoun, "1F466", "he", "ele", "él", "ell"),
        w(.verb, "1F513", "open", "abrir", "abrir", "obrir"), w(.verb, "1F4AA", "do", "fazer", "hacer", "fer"),
        w(.verb, "1F590", "put", "colocar", "poner", "posar"), w(.descriptor, "1F91D", "same", "igual", "igual", "igual"),
        w(.pronoun, "1F9D1-200D-1F91D-200D-1F9D1", "we", "nós", "nosotros", "nosaltres"),
        w(.verb, "1F374", "eat", "comer", "comer", "menjar"), w(.verb, "1F964", "drink", "beber", "beber", "beure"), .folder(2),
        // Row 4
        w(.pronoun, "1F449", "you", "você", "tú", "tu"), w(.pronoun, "1F467", "she", "ela", "ella", "ella"),
        w(.misc, "1F50D", "that", "aquilo", "aquello", "allò"), w(.descriptor, "2B06", "up", "para cima", "arriba", "amunt"),
        w(.misc, "1F4DA", "all", "tudo", "todo", "tot"), w(.misc, "2796", "some", "um pouco", "un poco", "una mica"),
        w(.pronoun, "1F465", "they", "eles", "ellos", "ells"),
        w(.verb, "26F9", "play", "brincar", "jugar", "jugar"), w(.verb, "1F634", "sleep", "dormir", "dormir", "dormir"), .folder(3),
        // Row 5
        w(.pronoun, "26BD", "it", "isso", "eso", "això"), w(.descriptor, "2B07", "here", "aqui", "aquí", "aquí"),
        w(.descriptor, "1F943", "in", "dentro", "dentro", "dins"), w(.descriptor, "1FA91", "on", "sobre", "sobre", "sobre"),
        w(.verb, "1F9D7", "can", "poder", "poder", "poder"), w(.social, "1F3C1", "finished", "acabou", "se acabó", "s'ha acabat"),
        w(.misc, "1F392", "my", "meu", "mi", "meu"), w(.descriptor, "1F418", "big", "grande", "grande", "gran"),
        w(.descriptor, "1F42D", "little", "pequeno", "pequeño", "petit"), w(.descriptor, "231A", "now", "agora", "ahora", "ara"),
        // Row 6
        w(.question, "1F4CD", "where", "onde", "dónde", "on"), w(.question, "2753", "what", "o quê", "qué", "què"),
        w(.question, "2754", "why", "por quê", "por qué", "per què"), w(.question, "1F464", "who", "quem", "quién", "qui"),
        w(.question, "1F570", "when", "quando", "cuándo", "quan"), w(.negation, "1F6D1", "stop", "parar", "parar", "parar"),
        w(.descriptor, "1F5FA", "there", "lá", "allí", "allà"), w(.descriptor, "1F6AA", "out", "fora", "fuera", "fora"),
        w(.descriptor, "1F44E", "bad", "ruim", "malo", "dolent"), w(.misc, "1F501", "again", "de novo", "otra vez", "una altra vegada"),
    ]

    private static func words(_ part: Part, _ list: [(String, String, String, String, String)]) -> [Word] {
        list.map { Word(part, $0.0, en: $0.1, ptBR: $0.2, es: $0.3, ca: $0.4) }
    }

    /// The four folders' boards (3 × 4 each), in the order of `.folder` indexes. Their names are a core board's
    /// words too: at most 10 letters ("Emoções", not "Sentimentos"), so its labels print at 10 px or more.
    static let fringe: [Fringe] = [
        Fringe(key: "food", pictogram: "1F34E", names: [.ptBR: "Comida", .es: "Comida", .ca: "Menjar", .en: "Food"], rows: 3, columns: 4,
               words: words(.noun, [
                ("1F6B0", "water", "água", "agua", "aigua"), ("1F95B", "milk", "leite", "leche", "llet"),
                ("1F9C3", "juice", "suco", "zumo", "suc"), ("1F35E", "bread", "pão", "pan", "pa"),
                ("1F34E", "apple", "maçã", "manzana", "poma"), ("1F34C", "banana", "banana", "plátano", "plàtan"),
                ("1F36A", "biscuit", "biscoito", "galleta", "galeta"), ("1F35A", "rice", "arroz", "arroz", "arròs"),
                ("1F35D", "pasta", "macarrão", "pasta", "pasta"), ("1F9C0", "cheese", "queijo", "queso", "formatge"),
                ("1F357", "chicken", "frango", "pollo", "pollastre"), ("1F366", "ice cream", "sorvete", "helado", "gelat"),
               ])),
        Fringe(key: "places", pictogram: "1F3E0", names: [.ptBR: "Lugares", .es: "Lugares", .ca: "Llocs", .en: "Places"], rows: 3, columns: 4,
               words: words(.noun, [
                ("1F3E0", "home", "casa", "casa", "casa"), ("1F3EB", "school", "escola", "escuela", "escola"),
                ("1F3DE", "park", "parque", "parque", "parc"), ("1F6DD", "playground", "parquinho", "parque infantil", "parc infantil"),
                ("1F3EA", "shop", "loja", "tienda", "botiga"), ("1F3E5", "hospital", "hospital", "hospital", "hospital"),
                ("1F3D6", "beach", "praia", "playa", "platja"), ("1F6BB", "toilet", "banheiro", "baño", "lavabo"),
                ("1F3E1", "garden", "jardim", "jardín", "jardí"), ("1F3A6", "cinema", "cinema", "cine", "cinema"),
                ("1F3DB", "museum", "museu", "museo", "museu"), ("1F3D9", "city", "cidade", "ciudad", "ciutat"),
               ])),
        Fringe(key: "people", pictogram: "1F46A", names: [.ptBR: "Pessoas", .es: "Personas", .ca: "Persones", .en: "People"], rows: 3,
               columns: 4, words: words(.pronoun, [
                ("1F469", "mum", "mamãe", "mamá", "mama"), ("1F468", "dad", "papai", "papá", "papa"),
                ("1F476", "baby", "bebê", "bebé", "bebè"), ("1F475", "grandma", "vovó", "abuela", "àvia"),
                ("1F474", "grandad", "vovô", "abuelo", "avi"), ("1F9D2", "friend", "amigo", "amigo", "amic"),
                ("1F469-200D-1F3EB", "teacher", "professora", "maestra", "mestra"),
                ("1F9D1-200D-2695-FE0F", "doctor", "médico", "médico", "metge"),
                ("1F469-200D-2695-FE0F", "nurse", "enfermeira", "enfermera", "infermera"),
                ("1F46A", "family", "família", "familia", "família"), ("1F46E", "police officer", "polícia", "policía", "policia"),
                ("1F9D1", "person", "pessoa", "persona", "persona"),
               ])),
        Fringe(key: "feelings", pictogram: "1F600", names: [.ptBR: "Emoções", .es: "Emociones", .ca: "Emocions", .en: "Feelings"],
               rows: 3, columns: 4, words: words(.descriptor, [
                ("1F600", "happy", "feliz", "contento", "content"), ("1F622", "sad", "triste", "triste", "trist"),
                ("1F620", "angry", "bravo", "enfadado", "enfadat"), ("1F628", "scared", "com medo", "asustado", "espantat"),
                ("1F62B", "tired", "cansado", "cansado", "cansat"), ("1F912", "ill", "doente", "enfermo", "malalt"),
                ("1F915", "pain", "dor", "dolor", "dolor"), ("1F644", "bored", "entediado", "aburrido", "avorrit"),
                ("1F929", "excited", "animado", "emocionado", "emocionat"), ("1F60C", "calm", "calmo", "tranquilo", "tranquil"),
                ("1F975", "hot", "calor", "calor", "calor"), ("1F976", "cold", "frio", "frío", "fred"),
               ])),
    ]

    /// Every word of the set: the core board's, then each folder's.
    static var allWords: [Word] {
        core.compactMap { if case .word(let word) = $0 { word } else { nil } } + fringe.flatMap(\.words)
    }
}
