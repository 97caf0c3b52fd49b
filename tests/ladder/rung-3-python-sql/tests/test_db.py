import unittest

from src.db import add_user, find_user, get_conn, init_schema, seed


class UserStoreTest(unittest.TestCase):
    def setUp(self):
        self.conn = get_conn()
        init_schema(self.conn)
        seed(self.conn)

    def tearDown(self):
        self.conn.close()

    def test_find_known_user(self):
        user = find_user(self.conn, "alice")
        self.assertEqual(user["email"], "alice@example.org")

    def test_find_unknown_user(self):
        self.assertIsNone(find_user(self.conn, "mallory"))

    def test_add_then_find(self):
        add_user(self.conn, "carol", "carol@example.org")
        self.assertEqual(find_user(self.conn, "carol")["name"], "carol")

    def test_name_with_quote(self):
        user = find_user(self.conn, "o'brien")
        self.assertEqual(user["email"], "obrien@example.org")

    def test_injection_matches_nothing(self):
        self.assertIsNone(find_user(self.conn, "x' OR '1'='1"))


if __name__ == "__main__":
    unittest.main()
