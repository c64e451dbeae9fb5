"""Indonesian (id): the words quizbot reads and checks in Indonesian texts.

One field per use (:class:`~bot.kernel.languages.Language`); plain data."""

from __future__ import annotations

from bot.kernel.languages._shape import LATIN, Language, Numbered, Sheet

LANGUAGE = Language(
    code="id",
    stopwords=frozenset(
        """yang di ke dari dan atau dengan untuk pada dalam oleh adalah ialah ini itu tersebut
        sebagai juga tidak tak bukan belum akan sudah telah sedang masih karena sehingga agar
        supaya bagi atas antara setiap tiap semua seluruh para sebuah suatu seorang ada apa
        bagaimana mana berapa mengapa siapa kapan jika bila kalau maka namun tetapi tapi
        sedangkan serta lalu kemudian hanya saja pun lebih paling sangat seperti yaitu yakni
        dapat bisa harus perlu tanpa hingga sampai sejak selama tentang terhadap per nya""".split()
    ),
    above_phrases=(
        r"\bsemua (?:jawaban |pilihan )?(?:yang )?(?:di )?atas\b",
        r"\bsemuanya benar\b",
        r"\btidak ada (?:satu pun )?(?:jawaban |pilihan )?(?:yang benar )?"
        r"(?:dari |di )?(?:yang )?(?:di )?atas\b",
        r"\bbukan salah satu (?:dari )?(?:yang )?(?:di )?atas\b",
    ),
    true_words=("Benar",),
    false_words=("Salah",),
    count_words=("dari",),
    sheet=Sheet(
        question=("Pertanyaan", "Soal"),
        answer=("Jawaban", "Kunci jawaban", "Kunci"),
        explanation=("Penjelasan", "Pembahasan"),
        picture=("Gambar", "Foto"),
        kind=("Jenis", "Tipe"),
        option=("Pilihan", "Opsi"),
        true=("Benar", "B"),
        false=("Salah", "S"),
        choice=("pilihan ganda",),
        true_false=("benar-salah", "benar/salah", "benar atau salah"),
        source=("Sumber",),
        link=("Tautan sumber", "Tautan"),
        shuffle=("Acak",),
        marks=("Nilai", "Poin", "Skor", "Bobot"),
        waive=("Pengecualian",),
        settings=("Pengaturan",),
        title=("Judul",),
        description=("Deskripsi", "Keterangan"),
        language=("Bahasa",),
        level=("Tingkat", "Level", "Tingkat kesulitan"),
        minutes=("Menit", "Durasi", "Batas waktu"),
        penalty=("Penalti",),
        draw=("Soal per percobaan", "Undian"),
        guide=("Panduan",),
        guide_label=("Label panduan",),
    ),
    numbered=Numbered(
        answer=("Jawaban", "Kunci jawaban", "Jawab", "Kunci"),
        explanation=("Penjelasan", "Pembahasan"),
        letters=LATIN,
        and_words=("dan",),
    ),
)
